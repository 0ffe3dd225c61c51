import { HttpError, type DataProvider, type RaRecord } from 'ra-core';
import { ui } from '../../contract/messages';
import { asRefusedWrite } from './errors';
import { readToken } from './token';
import type { ActionTable, EndpointTable, ResourceEndpoints } from './types';

type Endpoints = ResourceEndpoints<RaRecord, unknown>;

function missing(resource: string, what: string): never {
  throw new HttpError(`The ${resource} screens cannot ${what}: no endpoint is mapped for it`, 0);
}

/**
 * Without the session cookie nothing is fetched (spec 6-7): a list logs 'No token found', a delete
 * answers 'You need to be logged in', anything else 'Needs to be authenticated'; all as a 401, so
 * react-admin's checkError sends the visitor to the login page.
 */
function requireToken(kind: 'list' | 'delete' | 'other'): void {
  if (readToken()) return;
  if (kind === 'list') console.warn(ui.other.noTokenFound);
  throw new HttpError(kind === 'delete' ? ui.access.needLogin : ui.access.needsAuthentication, 401);
}

/** Named actions whose name starts with `get` only read; every other one writes. */
const isReadAction = (name: string) => name.startsWith('get');

/** Runs a write; a 401 is reported by the screen that made it instead of a silent sign-out (see `asRefusedWrite`). */
async function write<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asRefusedWrite(error);
  }
}

function guardActions<A extends ActionTable>(actions: A): A {
  const guarded: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, action] of Object.entries(actions)) {
    const call = async (...args: never[]) => {
      requireToken('other');
      return action(...args);
    };
    guarded[name] = isReadAction(name) ? call : (...args: never[]) => write(() => call(...args));
  }
  return guarded as A;
}

/** react-admin's DataProvider methods without its `[key: string]: any`, so a misspelt action does not compile. */
export type CrudMethods = Pick<DataProvider, 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'updateMany' | 'delete' | 'deleteMany'>;

/**
 * The react-admin data provider of the platform: CRUD per resource from `endpoints`, plus the
 * platform's named actions (approve, block, close position...) from `actions`, all typed by the
 * contract. App code calls it through react-admin's hooks (`useGetList`, `useUpdate`, or
 * `useMutation` around `useAppDataProvider().approveCustomer(...)`), never the HTTP client.
 */
export function createDataProvider<A extends ActionTable>(endpoints: EndpointTable, actions: A): CrudMethods & A {
  const of = (resource: string): Endpoints => endpoints[resource] ?? missing(resource, 'be loaded');
  const crud = {
    async getList(resource: string, params: Parameters<DataProvider['getList']>[1]) {
      requireToken('list');
      const { getList } = of(resource);
      return getList ? getList(params) : missing(resource, 'list');
    },
    async getOne(resource: string, params: Parameters<DataProvider['getOne']>[1]) {
      requireToken('other');
      const { getOne } = of(resource);
      return getOne ? getOne(params) : missing(resource, 'getOne');
    },
    async getMany(resource: string, params: Parameters<DataProvider['getMany']>[1]) {
      requireToken('list');
      const endpoint = of(resource);
      if (endpoint.getMany) return endpoint.getMany(params);
      // Without a batch endpoint, one getOne per id (react-admin dedupes and caches them).
      const getOne = endpoint.getOne ?? missing(resource, 'getMany');
      const data = await Promise.all(params.ids.map(async (id) => (await getOne({ id })).data));
      return { data };
    },
    async getManyReference(resource: string, params: Parameters<DataProvider['getManyReference']>[1]) {
      requireToken('list');
      const endpoint = of(resource);
      if (endpoint.getManyReference) return endpoint.getManyReference(params);
      const getList = endpoint.getList ?? missing(resource, 'getManyReference');
      return getList({ ...params, filter: { ...params.filter, [params.target]: params.id } });
    },
    async create(resource: string, params: Parameters<DataProvider['create']>[1]) {
      return write(async () => {
        requireToken('other');
        const { create } = of(resource);
        return create ? create(params) : missing(resource, 'create');
      });
    },
    async update(resource: string, params: Parameters<DataProvider['update']>[1]) {
      return write(async () => {
        requireToken('other');
        const { update } = of(resource);
        return update ? update(params) : missing(resource, 'update');
      });
    },
    async delete(resource: string, params: Parameters<DataProvider['delete']>[1]) {
      return write(async () => {
        requireToken('delete');
        const { delete: remove } = of(resource);
        return remove ? remove(params) : missing(resource, 'delete');
      });
    },
    async updateMany(resource: string): Promise<never> {
      return missing(resource, 'updateMany');
    },
    async deleteMany(resource: string): Promise<never> {
      return missing(resource, 'deleteMany');
    },
  };
  // react-admin types each method as generic over the record type; the endpoint table keeps the
  // real record types, so the generic signature is only narrowed here.
  return { ...(crud as unknown as DataProvider), ...guardActions(actions) };
}
