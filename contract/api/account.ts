import { z } from 'zod';
import { AccountStatus, AccountType, Gender, enumValues } from '../enums';
import { email, id, password, personName } from '../common';
import { success } from '../envelope';
import { defineRoute } from '../route';
import { countryRef } from './country';
import { server } from '../messages';

const accountTypeValue = z.union(enumValues(AccountType).map((v) => z.literal(v)) as [z.ZodLiteral<AccountType>, ...z.ZodLiteral<AccountType>[]], {
  error: 'accountType must be 1 (Customer), 2 (Agent), 3 (Employee) or 4 (Admin)',
});
const genderValue = z.union([z.literal(Gender.Male), z.literal(Gender.Female)], { error: 'gender must be 1 (Male) or 2 (Female)' });
const statusValue = z.union(enumValues(AccountStatus).map((v) => z.literal(v)) as [z.ZodLiteral<AccountStatus>, ...z.ZodLiteral<AccountStatus>[]], {
  error: 'status must be 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)',
});

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

export const age = z.coerce.number({ error: 'age must be a number' }).int('age must be a whole number').min(0, 'age cannot be negative').max(150, 'age must be at most 150');
export const phone = z.string().trim().regex(/^\+?\d{4,20}$/, 'phone must hold a dial code and number, digits only');

export const personFields = z.object({
  firstName: personName,
  lastName: personName,
  email,
  age,
  phone,
  countryId: id,
  gender: genderValue,
});

export const accountCreateBody = personFields.extend({ password, accountType: accountTypeValue });
export type AccountCreateBody = z.infer<typeof accountCreateBody>;

export const registerBody = personFields.extend({
  registrationId: z.string().trim().min(1, 'Please, enter Registration ID').max(64),
  password,
});

export const loginBody = z.object({ email, password: z.string().min(1, 'password is required').max(200) });
export const loginResult = z.object({
  requires2FA: z.boolean(),
  accountId: z.number().int(),
  accountType: z.number().int(),
  email: z.string(),
});

export const verificationCode = z.string().trim().regex(/^\d{6}$/, 'The code has 6 digits');
export const accessTokenResult = z.object({
  accessToken: z.object({ value: z.string(), expiresAt: z.string() }),
  accountId: z.number().int(),
  accountType: z.number().int(),
});

export const statusChangeBody = z.object({
  status: z.union([z.literal(0), statusValue], {
    error: 'status must be 0 (delete), 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)',
  }),
});

export const accountIdParams = z.object({ accountId: id });

export const accountRoutes = {
  me: defineRoute({
    method: 'GET', path: '/api/account', access: 'self', tag: 'account',
    summary: 'The signed-in account', data: account,
  }),
  create: defineRoute({
    method: 'POST', path: '/api/account', access: 'staffCreateCustomer', tag: 'account',
    summary: 'Create an account (staff forms). Employees may create customers (type 1) only.',
    body: accountCreateBody, data: z.object({ id: z.number().int() }),
  }),
  login: defineRoute({
    method: 'POST', path: '/api/security/login', access: 'public', tag: 'security',
    summary: 'Check email and password; mails a 6-digit code', body: loginBody, data: loginResult,
  }),
  logout: defineRoute({
    method: 'POST', path: '/api/security/logout', access: 'self', tag: 'security',
    summary: 'End the current session', data: success,
  }),
  requestVerification: defineRoute({
    method: 'POST', path: '/api/security/email/requestverification', access: 'public', tag: 'security',
    summary: 'Mail a new login code (after a password check within the last 10 minutes)',
    body: z.object({ accountId: id, email }), data: success,
  }),
  verifyEmail: defineRoute({
    method: 'POST', path: '/api/security/email/verify', access: 'public', tag: 'security',
    summary: 'Exchange the emailed code for an access token', body: z.object({ code: verificationCode, accountId: id }), data: accessTokenResult,
  }),
  forgotPassword: defineRoute({
    method: 'POST', path: '/api/security/password/forgot', access: 'public', tag: 'security',
    summary: 'Mail a password reset code', body: z.object({ email }), data: z.object({ email: z.string(), accountId: z.number().int() }),
  }),
  verifyPassword: defineRoute({
    method: 'POST', path: '/api/security/password/verify', access: 'public', tag: 'security',
    summary: 'Set a new password with the emailed code', body: z.object({ code: verificationCode, accountId: id, password }), data: success,
  }),
  resetOwnPassword: defineRoute({
    method: 'POST', path: '/api/security/password/reset', access: 'self', tag: 'security',
    summary: 'Change the signed-in account password', body: z.object({ password }), data: success,
    unauthenticatedMessage: server.errorGetAccount,
  }),
  resetPasswordOf: defineRoute({
    method: 'POST', path: '/api/security/password/reset/:id', access: 'adminManage', tag: 'security',
    summary: "Set another account's password", params: z.object({ id }), body: z.object({ password }), data: success,
  }),
  changeStatus: defineRoute({
    method: 'PATCH', path: '/api/security/status/:accountId', access: 'adminManage', tag: 'security',
    summary: 'Approve (3), reject (5), block (2), unblock (3) or delete (0) an account',
    params: accountIdParams, body: statusChangeBody, data: z.object({ id: z.number().int(), status: z.number().int() }),
  }),
  verifyRegistrationId: defineRoute({
    method: 'POST', path: '/api/security/registrationid/verify', access: 'public', tag: 'security',
    summary: 'Check a registration ID before the sign-up form',
    body: z.object({ registrationId: z.string().trim().min(1, 'Please, enter Registration ID').max(64) }),
    data: z.object({ registrationId: z.string(), valid: z.literal(true) }),
  }),
  register: defineRoute({
    method: 'POST', path: '/api/security/register', access: 'public', tag: 'security',
    summary: 'Create a customer account with a registration ID; answers the temporary account id for the exchange connect step',
    body: registerBody, data: z.object({ tempAccountId: z.string() }),
  }),
};
