import { HttpError } from 'ra-core';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { accountRoutes } from '../../contract/api/account';
import { countryRoutes, type Country } from '../../contract/api/country';
import { apiUrl, failed, ok, server } from '../test/msw';
import { ui } from '../../contract/messages';
import { createDataProvider } from './createDataProvider';
import { isRefusedWrite } from './errors';
import { callRoute } from './http';
import { toListResult, wirePage } from './paging';

const sg: Country = { id: 3, name: 'Singapore', imageUrl: '/flags/sg.svg', countryCode: 'SG', dialCode: '+65' };

describe('callRoute', () => {
  it('sends JSON with the Bearer token of the cookie and answers the envelope data', async () => {
    Cookies.set('accessToken', 'abc', { path: '/' });
    let seen: { auth: string | null; type: string | null; body: unknown } | undefined;
    server.use(
      http.post(apiUrl(countryRoutes.search.path), async ({ request }) => {
        seen = { auth: request.headers.get('authorization'), type: request.headers.get('content-type'), body: await request.json() };
        return HttpResponse.json(ok(countryRoutes.search, { data: [sg], paging: { totalCount: 1, pageIndex: 0, pageSize: 32 } }));
      }),
    );
    const page = await callRoute(countryRoutes.search, { body: { filter: [], pageIndex: 0, pageSize: 32 } });
    expect(page.data).toEqual([sg]);
    expect(seen).toEqual({ auth: 'Bearer abc', type: 'application/json', body: { filter: [], pageIndex: 0, pageSize: 32 } });
  });

  it('sends no token on anonymous calls and fills path parameters', async () => {
    Cookies.set('accessToken', 'abc', { path: '/' });
    let auth: string | null = 'unset';
    server.use(
      http.post(apiUrl('/api/security/password/reset/12'), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json(ok(accountRoutes.resetPasswordOf, { success: true }));
      }),
    );
    await expect(callRoute(accountRoutes.resetPasswordOf, { params: { id: 12 }, body: { password: 'new password' }, anonymous: true })).resolves.toEqual({ success: true });
    expect(auth).toBeNull();
  });

  it('turns an error status into an HttpError carrying error.message and the status', async () => {
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(failed('Unauthorized: No access token found'), { status: 401 })));
    const error = await callRoute(accountRoutes.me).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('Unauthorized: No access token found');
    expect((error as HttpError).status).toBe(401);
  });

  it('turns successful: false with a 200 into an HttpError too', async () => {
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(failed('Error get account'))));
    await expect(callRoute(accountRoutes.me)).rejects.toMatchObject({ message: 'Error get account', status: 200 });
  });
});

describe('paging', () => {
  it('maps the 1-based UI page to the 0-based pageIndex', () => {
    expect(wirePage({ pagination: { page: 1, perPage: 25 } })).toEqual({ pageIndex: 0, pageSize: 25 });
    expect(wirePage({ pagination: { page: 3, perPage: 50 } })).toEqual({ pageIndex: 2, pageSize: 50 });
  });

  it('maps a paged answer to react-admin records and total', () => {
    const result = toListResult({ data: [{ code: 'A' }, { code: 'B' }], paging: { totalCount: 12, pageIndex: 1, pageSize: 2 } }, (row) => ({ id: row.code, ...row }));
    expect(result).toEqual({
      data: [
        { id: 'A', code: 'A' },
        { id: 'B', code: 'B' },
      ],
      total: 12,
      pageInfo: { hasPreviousPage: true, hasNextPage: true },
    });
  });
});

describe('createDataProvider', () => {
  const provider = createDataProvider(
    {
      things: {
        getList: async (params) => ({ data: [{ id: 1, page: wirePage(params).pageIndex }], total: 1 }),
        getOne: async ({ id }) => ({ data: { id, name: `thing ${id}` } }),
      },
    },
    { double: async (n: number) => n * 2, getDouble: async (n: number) => n * 2 },
  );

  it('dispatches per resource, and the named actions are methods of the provider', async () => {
    Cookies.set('accessToken', 'abc', { path: '/' });
    await expect(provider.getList('things', { pagination: { page: 2, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).resolves.toEqual({
      data: [{ id: 1, page: 1 }],
      total: 1,
    });
    await expect(provider.double(21)).resolves.toBe(42);
  });

  it('falls back to getOne per id for getMany, and to a filtered getList for getManyReference', async () => {
    Cookies.set('accessToken', 'abc', { path: '/' });
    await expect(provider.getMany('things', { ids: [1, 2] })).resolves.toEqual({
      data: [
        { id: 1, name: 'thing 1' },
        { id: 2, name: 'thing 2' },
      ],
    });
  });

  it('fails clearly for an unmapped resource or method', async () => {
    Cookies.set('accessToken', 'abc', { path: '/' });
    await expect(provider.getOne('nothing', { id: 1 })).rejects.toThrow('The nothing screens cannot be loaded: no endpoint is mapped for it');
    await expect(provider.delete('things', { id: 1 })).rejects.toThrow('The things screens cannot delete: no endpoint is mapped for it');
  });

  it('fetches nothing without the session cookie: lists log No token found, deletes need a login (spec 6-7)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(provider.getList('things', { pagination: { page: 1, perPage: 10 }, sort: { field: '', order: 'ASC' }, filter: {} })).rejects.toMatchObject({
      message: ui.access.needsAuthentication,
      status: 401,
    });
    expect(warn).toHaveBeenCalledWith('No token found');
    await expect(provider.delete('things', { id: 1 })).rejects.toMatchObject({ message: 'You need to be logged in', status: 401 });
    await expect(provider.getOne('things', { id: 1 })).rejects.toMatchObject({ message: 'Needs to be authenticated', status: 401 });
    await expect(provider.double(1)).rejects.toMatchObject({ message: 'Needs to be authenticated', status: 401 });
    warn.mockRestore();
  });

  it('marks writes refused with a 401 (create, update, delete, actions not named get...) so they are reported, not swallowed', async () => {
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => isRefusedWrite(error));
    expect(await refusal(provider.delete('things', { id: 1 }))).toBe(true);
    expect(await refusal(provider.update('things', { id: 1, data: {}, previousData: { id: 1 } }))).toBe(true);
    expect(await refusal(provider.create('things', { data: {} }))).toBe(true);
    expect(await refusal(provider.double(1))).toBe(true);
    expect(await refusal(provider.getDouble(1))).toBe(false);
    expect(await refusal(provider.getOne('things', { id: 1 }))).toBe(false);
  });
});
