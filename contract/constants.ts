/** Business constants and limits of spec section 9 (and ARCHITECTURE decisions). */
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** Far beyond any list of the platform; a larger page index could only ask PostgreSQL for an absurd offset. */
export const MAX_PAGE_INDEX = 1_000_000;
export const REGISTRATION_ID_PAGE_SIZE = 100;
export const AUDIT_PAGE_SIZE = 50;
export const EXCLUSIVE_SEARCH_PAGE_SIZE = 100;
export const AGENT_DROPDOWN_PAGE_SIZE = 100;
export const COUNTRY_PAGE_SIZE = 32;
export const WEBHOOK_GROUP_PAGE_SIZE = 5;

export const VERIFICATION_CODE_LENGTH = 6;
export const ACCESS_TOKEN_COOKIE = 'accessToken';
export const SESSION_DAYS = 30;
export const REGISTRATION_ID_VALID_DAYS = 14;
export const APPROVAL_PROMISE_DAYS = 7;

/** The Monthly Income Report's year selector always offers these (spec 9), plus other years with data up to the current one. */
export const REPORT_YEARS = [2024, 2025, 2026] as const;

/** Month filter starts at May 2024 (spec 9), sent as YYYY-MM. */
export const FIRST_FILTER_MONTH = '2024-05';
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Audit "Today" is computed on a clock shifted by +8 hours (spec 9). */
export const AUDIT_TODAY_OFFSET_HOURS = 8;

export const POSITION_CLOSE_MIN = 0.01;
export const POSITION_CLOSE_MAX = 10;
export const NAME_SEARCH_DEBOUNCE_MS = 1000;
