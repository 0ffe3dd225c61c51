import { z } from 'zod';
import { AccountStatus, AccountType, Gender, enumValues } from '../enums';
import { email, id, idParam, password, personName, text } from '../common';
import { success } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';
import { countryRef } from './country';
import { server } from '../messages';

const accountTypeValue = z.literal(enumValues(AccountType), { error: 'accountType must be 1 (Customer), 2 (Agent), 3 (Employee) or 4 (Admin)' });
const genderValue = z.literal(enumValues(Gender), { error: 'gender must be 1 (Male) or 2 (Female)' });

export const account = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  age: z.number().int().nullable(),
  phone: z.string().nullable(),
  gender: z.number().int().nullable(),
  country: countryRef.nullable(),
  status: z.number().int(),
  datetimeInserted: z.string(),
  role: z.object({ accountType: z.number().int() }),
});
export type Account = z.infer<typeof account>;

export const age = z.number({ error: 'age must be a number' }).int('age must be a whole number').min(0, 'age cannot be negative').max(150, 'age must be at most 150');
export const phone = text().trim().regex(/^\+?\d{4,20}$/, 'phone must hold a dial code and number, digits only');

export const personFields = z.object({
  firstName: personName,
  lastName: personName,
  email,
  age,
  phone,
  countryId: id,
  gender: genderValue,
});

/** A Registration ID as people type it (spaces around it are dropped). */
export const registrationId = text().trim().min(1, 'Please, enter Registration ID').max(64, 'Registration ID is too long');

export const accountCreateBody = personFields.extend({ password, accountType: accountTypeValue });
export type AccountCreateBody = z.infer<typeof accountCreateBody>;

export const registerBody = personFields.extend({
  registrationId,
  password,
});

/** Which sign-in page the person used: 'staff' is /admin/login, which refuses customers before any code is mailed. */
export const LoginPortal = { Staff: 'staff', Customer: 'customer' } as const;
export type LoginPortal = (typeof LoginPortal)[keyof typeof LoginPortal];

export const loginBody = z.object({
  email,
  password: text().min(1, 'password is required').max(200, 'Password is too long'),
  portal: z.enum([LoginPortal.Staff, LoginPortal.Customer], { error: "portal must be 'staff' (/admin/login) or 'customer' (/auth/login)" }).optional(),
  /** The code for new devices mailed while the account is at its hourly cap of failed sign-ins (README: Sign-in). */
  deviceCode: text().max(40, 'deviceCode is too long').optional(),
});
export const loginResult = z.object({
  requires2FA: z.boolean(),
  accountId: z.number().int(),
  accountType: z.number().int(),
  email: z.string(),
});

export const verificationCode = text().trim().regex(/^\d{6}$/, 'The code has 6 digits');
export const accessToken = z.object({ value: z.string(), expiresAt: z.string() });
export const accessTokenResult = z.object({
  accessToken,
  accountId: z.number().int(),
  accountType: z.number().int(),
});

export const statusChangeBody = z.object({
  status: z.literal([0, ...enumValues(AccountStatus)], {
    error: 'status must be 0 (delete), 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)',
  }),
});

export const accountIdParams = z.object({ accountId: idParam });

/**
 * The `accountId` of the password-reset steps: an opaque value, alike for registered and unknown
 * emails (a real account id would tell which emails exist). The web app passes it back unchanged.
 */
export const resetAccountId = text({ error: 'accountId must be the value the forgot-password answer gave' })
  .min(16, 'accountId must be the value the forgot-password answer gave')
  .max(200, 'accountId must be the value the forgot-password answer gave');

/** Changing one's own password takes the current one: a stolen session token alone cannot take the account over. */
export const ownPasswordBody = z.object({
  currentPassword: text({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(200, 'Password is too long'),
  password,
});

/** The own password change ends every session, the one used included, and answers its replacement. */
export const ownPasswordResult = success.extend({ accessToken });

export const accountRoutes = {
  me: defineRoute({
    method: 'GET', path: '/api/account', access: 'self', tag: 'account',
    summary: 'The signed-in account', data: account, errors: [ErrorStatus.NotFound],
  }),
  create: defineRoute({
    method: 'POST', path: '/api/account', access: 'staffCreateCustomer', tag: 'account',
    summary: 'Create an account (staff forms). Employees may create customers (type 1) only.',
    body: accountCreateBody, data: z.object({ id: z.number().int() }), errors: [ErrorStatus.Conflict],
  }),
  login: defineRoute({
    method: 'POST', path: '/api/security/login', access: 'public', tag: 'security',
    summary:
      "Check email and password; mails a 6-digit code. With portal 'staff' (/admin/login) a customer is refused (403) before any code is mailed. Wrong passwords slow down per account and address, and are capped per account (README: Sign-in)",
    body: loginBody, data: loginResult, errors: [ErrorStatus.Unauthorized, ErrorStatus.Forbidden, ErrorStatus.TooManyRequests],
  }),
  logout: defineRoute({
    method: 'POST', path: '/api/security/logout', access: 'self', tag: 'security',
    summary: 'End the current session', data: success,
  }),
  requestVerification: defineRoute({
    method: 'POST', path: '/api/security/email/requestverification', access: 'public', tag: 'security',
    summary: 'Mail a new login code (after a password check within the last 10 minutes)',
    body: z.object({ accountId: id, email }), data: success, errors: [ErrorStatus.Forbidden, ErrorStatus.TooManyRequests],
  }),
  verifyEmail: defineRoute({
    method: 'POST', path: '/api/security/email/verify', access: 'public', tag: 'security',
    summary: 'Exchange the emailed code for an access token', body: z.object({ code: verificationCode, accountId: id }), data: accessTokenResult,
    errors: [ErrorStatus.Forbidden, ErrorStatus.TooManyRequests],
  }),
  forgotPassword: defineRoute({
    method: 'POST', path: '/api/security/password/forgot', access: 'public', tag: 'security',
    summary:
      'Mail a password reset code (staff) or a note to ask their agent (customers). The answer looks alike for every email: accountId is an opaque value to send back with the code',
    body: z.object({ email }), data: z.object({ email: z.string(), accountId: z.string() }), errors: [ErrorStatus.TooManyRequests],
  }),
  verifyPassword: defineRoute({
    method: 'POST', path: '/api/security/password/verify', access: 'public', tag: 'security',
    summary: 'Set a new password with the emailed code; accountId is the value the forgot-password answer gave',
    body: z.object({ code: verificationCode, accountId: resetAccountId, password }), data: success, errors: [ErrorStatus.TooManyRequests],
  }),
  resetOwnPassword: defineRoute({
    method: 'POST', path: '/api/security/password/reset', access: 'self', tag: 'security',
    summary:
      'Change the signed-in account password, given the current one (wrong ones count like wrong sign-in passwords). Every session ends, the one used included; the answer carries the new access token to store',
    body: ownPasswordBody, data: ownPasswordResult, unauthenticatedMessage: server.errorGetAccount, errors: [ErrorStatus.TooManyRequests],
  }),
  resetPasswordOf: defineRoute({
    method: 'POST', path: '/api/security/password/reset/:id', access: 'adminManage', tag: 'security',
    summary: "Set another account's password (an admin's own password is changed with the current one, POST /api/security/password/reset)", params: z.object({ id: idParam }), body: z.object({ password }), data: success,
    errors: [ErrorStatus.NotFound],
  }),
  changeStatus: defineRoute({
    method: 'PATCH', path: '/api/security/status/:accountId', access: 'adminManage', tag: 'security',
    summary: 'Approve (3), reject (5), block (2), unblock (3) or delete (0) an account',
    params: accountIdParams, body: statusChangeBody, data: z.object({ id: z.number().int(), status: z.number().int() }),
    errors: [ErrorStatus.NotFound],
  }),
  verifyRegistrationId: defineRoute({
    method: 'POST', path: '/api/security/registrationid/verify', access: 'public', tag: 'security',
    summary: 'Check a registration ID before the sign-up form',
    body: z.object({ registrationId }), data: z.object({ registrationId: z.string(), valid: z.literal(true) }),
    errors: [ErrorStatus.NotFound, ErrorStatus.TooManyRequests],
  }),
  register: defineRoute({
    method: 'POST', path: '/api/security/register', access: 'public', tag: 'security',
    summary:
      'Create a customer account with a registration ID (used up by the first complete form); answers the temporary account id for the exchange connect step. An email that already has an account is answered alike; the exchange callback says so',
    body: registerBody, data: z.object({ tempAccountId: z.string() }), errors: [ErrorStatus.NotFound, ErrorStatus.TooManyRequests],
  }),
};
