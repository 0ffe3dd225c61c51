import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages, ui } from '../../contract/messages';
import { signInPolicy, throttleMessages } from '../../server/modules/auth/sign-in-throttle';
import { createPerson, PASSWORD, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let base: URL;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = new URL(`http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`);
});
afterAll(async () => ctx?.close());

interface Answer {
  status: number;
  body: { successful: boolean; data: Record<string, unknown> | null; error: { message: string } | null };
  retryAfter: string | undefined;
}

/** A real HTTP request from a loopback address of our choice: 127.0.0.1, or a second one such as 127.0.0.2. */
function post(path: string, body: unknown, from: string): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const call = request(
      { host: base.hostname, port: base.port, path, method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'], retryAfter: res.headers['retry-after'] }));
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

const login = (person: Pick<Person, 'email'>, password: string, from: string, portal?: 'staff' | 'customer') =>
  post('/api/security/login', { email: person.email, password, ...(portal ? { portal } : {}) }, from);

/** Password and emailed code from one address; answers the session token. */
async function signIn(person: Person, from: string): Promise<string> {
  const first = await login(person, PASSWORD, from);
  expect(first.status).toBe(200);
  const verify = await post('/api/security/email/verify', { code: ctx.lastCode(person.email), accountId: person.accountId }, from);
  expect(verify.status).toBe(200);
  return (verify.body.data!.accessToken as { value: string }).value;
}

/** One wrong guess from `from`, waiting (on the test clock) whenever the address is slowed down. Answers how long it waited. */
async function guess(person: Person, from: string): Promise<number> {
  let waited = 0;
  for (;;) {
    const answer = await login(person, 'not the password', from);
    if (answer.status === 401) return waited;
    expect([answer.status, answer.body.error?.message]).toEqual([429, throttleMessages.slowDown(Number(answer.retryAfter))]);
    waited += Number(answer.retryAfter) * 1000;
    ctx.clock.advance(Number(answer.retryAfter) * 1000);
  }
}

describe("a stranger's wrong passwords from another address never stop the owner", () => {
  it('lets the owner sign in from 127.0.0.1 right after twenty wrong passwords from 127.0.0.2', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    for (let i = 0; i < 20; i++) expect([401, 429]).toContain((await login(owner, 'not the password', '127.0.0.2')).status);
    const mine = await login(owner, PASSWORD, '127.0.0.1');
    expect([mine.status, mine.body.data?.accountId]).toEqual([200, owner.accountId]);
  });

  it('slows 127.0.0.2 down after five failures while the owner signs in from 127.0.0.1 at once', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login(owner, 'not the password', '127.0.0.2')).status);
    // Five tries, then each further one must wait: slowed, never locked for good.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    const slowed = await login(owner, PASSWORD, '127.0.0.2');
    expect([slowed.status, slowed.body.error?.message, slowed.retryAfter]).toEqual([429, throttleMessages.slowDown(1), '1']);
    // The owner, at another address, is not affected.
    expect(await signIn(owner, '127.0.0.1')).toMatch(/^[\w-]{43}$/);
    ctx.clock.advance(signInPolicy.firstDelayMs);
    expect((await login(owner, PASSWORD, '127.0.0.2')).status).toBe(200);
  });

  it('caps wrong passwords at 100 an hour from unfamiliar addresses; the owner at a familiar address still signs in', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    await signIn(owner, '127.0.0.1');
    const started = ctx.clock.now().getTime();
    // A botnet: 100 addresses, one guess each (real requests from 127.0.1.x on loopback).
    const addresses = Array.from({ length: signInPolicy.unfamiliarFailuresPerHour }, (_, i) => `127.0.1.${i + 1}`);
    for (const address of addresses) expect((await login(owner, 'not the password', address)).status).toBe(401);
    // Guess 101 is refused before the password is even checked, from any unfamiliar address, right or wrong.
    for (const [address, password] of [['127.0.2.1', 'not the password'], ['127.0.2.2', PASSWORD], ['127.0.0.2', PASSWORD]] as const) {
      const capped = await login(owner, password, address);
      expect([capped.status, capped.body.error?.message, capped.retryAfter]).toEqual([429, throttleMessages.capped, '3600']);
    }
    // The owner's own address keeps working, and so does their sign-in.
    expect(await signIn(owner, '127.0.0.1')).toMatch(/^[\w-]{43}$/);
    // A stranger at the owner's address is slowed like anyone: at most a handful of guesses there.
    const guessedAt: number[] = [];
    while (ctx.clock.now().getTime() - started < signInPolicy.unfamiliarWindowMs) {
      await guess(owner, '127.0.0.1');
      guessedAt.push(ctx.clock.now().getTime());
    }
    expect(guessedAt.filter((at) => at - started < signInPolicy.unfamiliarWindowMs)).toHaveLength(17);
    // An hour after the guesses, new addresses may try again.
    ctx.clock.set(new Date(started + signInPolicy.unfamiliarWindowMs + 1000));
    expect((await login(owner, PASSWORD, '127.0.2.3')).status).toBe(200);
  });

  it('answers an unknown email exactly like a registered one: 401s, then the same slowing', async () => {
    const nobody = { email: 'nobody.at.all@example.com' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(nobody, 'whatever password', '127.0.0.3')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('binds a login code to the address that passed the password check: strangers can neither guess nor burn it', async () => {
    const owner = await createPerson(ctx, AccountType.Agent);
    expect((await login(owner, PASSWORD, '127.0.0.1')).status).toBe(200);
    const code = ctx.lastCode(owner.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 6; i++) {
      const stranger = await post('/api/security/email/verify', { code: i === 5 ? code : wrong, accountId: owner.accountId }, '127.0.0.4');
      expect([stranger.status, stranger.body.error?.message]).toEqual([400, messages.invalidCode]);
    }
    const resend = await post('/api/security/email/requestverification', { accountId: owner.accountId, email: owner.email }, '127.0.0.4');
    expect(resend.status).toBe(400);
    const mine = await post('/api/security/email/verify', { code, accountId: owner.accountId }, '127.0.0.1');
    expect(mine.status).toBe(200);
  });
});

describe('password guesses are counted and checked in one step, whatever the concurrency', () => {
  const statusesOf = (answers: Answer[]) => answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }), {});

  it('checks exactly five of 60 simultaneous wrong passwords from one address; the other 55 must wait', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    const answers = await Promise.all(Array.from({ length: 60 }, () => login(owner, 'not the password', '127.0.5.1')));
    expect(statusesOf(answers)).toEqual({ 401: signInPolicy.freeFailures, 429: 60 - signInPolicy.freeFailures });
    expect(answers.filter((answer) => answer.status === 429).every((answer) => answer.body.error?.message === throttleMessages.slowDown(Number(answer.retryAfter)))).toBe(true);
  });

  it('checks exactly 100 of 130 simultaneous wrong passwords from 130 unfamiliar addresses; the other 30 are capped', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    const addresses = Array.from({ length: 130 }, (_, i) => `127.0.6.${i + 1}`);
    const answers = await Promise.all(addresses.map((address) => login(owner, 'not the password', address)));
    expect(statusesOf(answers)).toEqual({ 401: signInPolicy.unfamiliarFailuresPerHour, 429: 30 });
  });

  it('gives 300 simultaneous guesses from four addresses exactly five checks per address', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    const addresses = ['127.0.7.1', '127.0.7.2', '127.0.7.3', '127.0.7.4'];
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => login(owner, 'not the password', addresses[i % 4]!)));
    expect(statusesOf(answers)).toEqual({ 401: 4 * signInPolicy.freeFailures, 429: 300 - 4 * signInPolicy.freeFailures });
  });
});

describe("strangers at the cap never keep the owner out of a new device", () => {
  const deviceMails = (email: string) => ctx.mails(email).filter((mail) => mail.subject === 'Your code for signing in from a new device');
  const deviceCodeOf = (mail: { text: string }) => /with your password: ([A-Z0-9]{10})\b/.exec(mail.text)![1]!;

  it('lets the owner in from a device never used before with the emailed code while strangers are capped; strangers gain nothing', async () => {
    const owner = await createPerson(ctx, AccountType.Employee);
    const strangers = Array.from({ length: signInPolicy.unfamiliarFailuresPerHour }, (_, i) => `127.0.9.${i + 1}`);
    await Promise.all(strangers.map((address) => login(owner, 'not the password', address)));
    // The owner on a new laptop: the right password alone is refused, and a code for new devices is mailed.
    const first = await login(owner, PASSWORD, '127.0.8.1');
    expect([first.status, first.body.error?.message]).toEqual([429, throttleMessages.capped]);
    await expect.poll(() => deviceMails(owner.email).length, { timeout: 10_000 }).toBe(1);
    const code = deviceCodeOf(deviceMails(owner.email)[0]!);
    // Strangers keep failing: capped, and no second mail within 10 minutes.
    expect((await login(owner, 'not the password', '127.0.9.200')).status).toBe(429);
    expect((await login(owner, PASSWORD, '127.0.9.201')).status).toBe(429);
    // A guessed code, with or without the right password, is a plain wrong sign-in.
    for (const [password, deviceCode] of [['not the password', 'ABCDEFGHJK'], [PASSWORD, 'ABCDEFGHJK'], ['not the password', code]] as const) {
      const wrong = await post('/api/security/login', { email: owner.email, password, deviceCode }, '127.0.9.202');
      expect([wrong.status, wrong.body.error?.message]).toEqual([401, messages.invalidCredentials]);
    }
    // The owner: password and code (typed in lower case, with a space), then the emailed login code as always.
    const mine = await post('/api/security/login', { email: owner.email, password: PASSWORD, deviceCode: ` ${code.slice(0, 5).toLowerCase()} ${code.slice(5)}` }, '127.0.8.1');
    expect([mine.status, mine.body.data?.accountId]).toEqual([200, owner.accountId]);
    const verify = await post('/api/security/email/verify', { code: ctx.lastCode(owner.email), accountId: owner.accountId }, '127.0.8.1');
    expect(verify.status).toBe(200);
    // Used once: the code lets no one else in, and the laptop is now a familiar device.
    expect((await post('/api/security/login', { email: owner.email, password: PASSWORD, deviceCode: code }, '127.0.8.2')).status).toBe(401);
    expect((await login(owner, PASSWORD, '127.0.8.1')).status).toBe(200);
    expect(deviceMails(owner.email)).toHaveLength(1);
  });

  it("counts forgot-password requests per requesting address: strangers' requests neither block nor replace the owner's code", async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    const forgot = (from: string) => post('/api/security/password/forgot', { email: owner.email }, from);
    const resetMails = () => ctx.mails(owner.email).filter((mail) => mail.subject === 'Your password reset code');
    for (let i = 1; i <= 6; i++) await forgot('127.0.10.1');
    for (let i = 1; i <= 5; i++) expect((await forgot(`127.0.10.${i + 1}`)).status).toBe(200);
    await expect.poll(() => resetMails().length, { timeout: 10_000 }).toBe(6);
    const mine = await forgot('127.0.0.1');
    expect(mine.status).toBe(200);
    await expect.poll(() => resetMails().length, { timeout: 10_000 }).toBe(7);
    const code = /\b(\d{6})\b/.exec(resetMails().at(-1)!.text)![1]!;
    // Later requests from strangers (past the 30 s resend interval) get codes of their own.
    ctx.clock.advance(31_000);
    for (let i = 1; i <= 3; i++) expect((await forgot(`127.0.10.${i + 1}`)).status).toBe(200);
    await expect.poll(() => resetMails().length, { timeout: 10_000 }).toBe(10);
    // A stranger cannot use the owner's code from elsewhere: the tries spent are those of the stranger's own code.
    const tries = [];
    for (let i = 0; i < 6; i++) tries.push((await post('/api/security/password/verify', { code, accountId: mine.body.data!.accountId, password: 'a stranger password' }, '127.0.10.2')).status);
    expect(tries).toEqual([400, 400, 400, 400, 429, 429]);
    const reset = await post('/api/security/password/verify', { code, accountId: mine.body.data!.accountId, password: 'the owner new password' }, '127.0.0.1');
    expect([reset.status, reset.body.data]).toEqual([200, { success: true }]);
    expect((await login(owner, 'the owner new password', '127.0.0.1')).status).toBe(200);
  });

  it('mails reset codes to at most ten unfamiliar addresses an hour; the answers stay alike and the owner at a familiar address still gets one', async () => {
    const owner = await createPerson(ctx, AccountType.Admin);
    await signIn(owner, '127.0.0.1');
    const resetMails = () => ctx.mails(owner.email).filter((mail) => mail.subject === 'Your password reset code');
    const answers = [];
    for (let i = 1; i <= 14; i++) answers.push(await post('/api/security/password/forgot', { email: owner.email }, `127.0.11.${i}`));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 14 }, () => 200));
    const familiar = await post('/api/security/password/forgot', { email: owner.email }, '127.0.0.1');
    expect(familiar.status).toBe(200);
    await expect.poll(() => resetMails().length, { timeout: 10_000 }).toBe(11);
    ctx.clock.advance(60 * 60 * 1000 + 1000);
    await post('/api/security/password/forgot', { email: owner.email }, '127.0.11.20');
    await expect.poll(() => resetMails().length, { timeout: 10_000 }).toBe(12);
  });
});

describe('/admin/login', () => {
  it('refuses a customer before any login code is mailed; the customer door and staff are unaffected', async () => {
    const customer = await createPerson(ctx, AccountType.Customer);
    const refused = await login(customer, PASSWORD, '127.0.0.1', 'staff');
    expect([refused.status, refused.body]).toEqual([403, { successful: false, data: null, error: { message: ui.access.adminsOnly } }]);
    expect(ctx.mails(customer.email)).toEqual([]);
    // A wrong password says only that: the staff door tells nothing about the account's type.
    expect((await login(customer, 'not the password', '127.0.0.1', 'staff')).status).toBe(401);
    expect((await login(customer, PASSWORD, '127.0.0.1', 'customer')).status).toBe(200);
    expect(ctx.mails(customer.email)).toHaveLength(1);
    const employee = await createPerson(ctx, AccountType.Employee);
    expect((await login(employee, PASSWORD, '127.0.0.1', 'staff')).status).toBe(200);
    const blocked = await createPerson(ctx, AccountType.Customer, { status: AccountStatus.Blocked });
    expect((await login(blocked, PASSWORD, '127.0.0.1', 'staff')).body.error?.message).toBe(messages.inactive);
  });
});

describe('POST /api/security/password/forgot', () => {
  it('answers registered staff, customers, inactive accounts and unknown emails alike', async () => {
    const staff = await createPerson(ctx, AccountType.Employee);
    const customer = await createPerson(ctx, AccountType.Customer);
    const blocked = await createPerson(ctx, AccountType.Agent, { status: AccountStatus.Blocked });
    const emails = [staff.email, customer.email, blocked.email, 'unknown.person@example.com'];
    const answers = await Promise.all(emails.map((email) => ctx.api('POST', '/api/security/password/forgot', { body: { email } })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => Object.keys(answer.body.data).sort())).toEqual(emails.map(() => ['accountId', 'email']));
    expect(answers.map((answer) => answer.body.data.email)).toEqual(emails);
    const ids = answers.map((answer) => answer.body.data.accountId as string);
    expect(new Set(ids.map((id) => id.length)).size).toBe(1);
    expect(ids.every((id) => /^[A-Za-z0-9_-]+$/.test(id) && !ids.some((other) => other !== id && other.slice(0, 12) === id.slice(0, 12)))).toBe(true);
    // Opaque: not the number itself, and long enough (>= 16 url-safe characters) to be random rather than a counter.
    expect(ids).not.toContain(String(staff.accountId));
    expect(ids[0]!.length).toBeGreaterThanOrEqual(16);
    // The same email twice gives two different values: nothing stable to compare.
    const again = await ctx.api('POST', '/api/security/password/forgot', { body: { email: staff.email } });
    expect(again.body.data.accountId).not.toBe(ids[0]);
  });

  it('answers before any mail is sent, so a slow mail server does not tell registered emails apart', async () => {
    const staff = await createPerson(ctx, AccountType.Employee);
    const send = ctx.deps.mailer.send;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    ctx.deps.mailer.send = async (mail) => {
      await held;
      sent.push(mail.to);
    };
    try {
      const answer = await ctx.api('POST', '/api/security/password/forgot', { body: { email: staff.email } });
      expect(answer.status).toBe(200);
      expect(sent).toEqual([]);
      release();
      await expect.poll(() => sent, { timeout: 5_000 }).toEqual([staff.email]);
    } finally {
      ctx.deps.mailer.send = send;
    }
  });

  it('takes a forged or decoy accountId as a wrong code', async () => {
    const decoy = await ctx.api('POST', '/api/security/password/forgot', { body: { email: 'not.registered@example.com' } });
    for (const accountId of [decoy.body.data.accountId, 'x'.repeat(80), `${decoy.body.data.accountId.slice(0, -2)}AA`]) {
      const answer = await ctx.api('POST', '/api/security/password/verify', { body: { code: '123456', accountId, password: 'a new password 1' } });
      expect([answer.status, answer.body.error?.message]).toEqual([400, messages.invalidCode]);
    }
  });
});
