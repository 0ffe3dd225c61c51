import Cookies from 'js-cookie';
import { ACCESS_TOKEN_COOKIE, SESSION_DAYS } from '../../contract/constants';

/** The session token lives in the spec's `accessToken` cookie (30 days, path /). */
export function readToken(): string | undefined {
  return Cookies.get(ACCESS_TOKEN_COOKIE) || undefined;
}

export function storeToken(token: string): void {
  Cookies.set(ACCESS_TOKEN_COOKIE, token, { expires: SESSION_DAYS, path: '/', sameSite: 'strict' });
}

export function removeToken(): void {
  Cookies.remove(ACCESS_TOKEN_COOKIE, { path: '/' });
}
