import { HttpError, type DataProvider } from 'ra-core';
import type { RouteData, RouteDef } from '../../contract/route';
import { callRoute, type CallArgs } from './http';
import type { EndpointTable, ResourceEndpoints } from './types';

type Method = Exclude<keyof ResourceEndpoints, 'custom'>;

/** The react-admin data provider of the platform, plus two custom methods. */
export interface AppDataProvider extends DataProvider {
  /** Any contract route: `dataProvider.call(strategyRoutes.long, { params: { id } })`. */
  call<R extends RouteDef>(route: R, args?: CallArgs<R>): Promise<RouteData<R>>;
  /** A resource-specific call declared in that resource's `endpoints.custom`. */
  custom<T = unknown>(resource: string, name: string, args?: unknown): Promise<T>;
}

function missing(resource: string, method: string): never {
  throw new HttpError(`The ${resource} screens cannot ${method}: no endpoint is mapped for it`, 0);
}

/**
 * Builds the data provider from the per-resource endpoint table (src/resources/index.ts collects
 * each resource's `endpoints`). App code talks to react-admin; only the table knows the URLs.
 */
export function createDataProvider(table: EndpointTable): AppDataProvider {
  const endpointsOf = (resource: string) => table[resource] ?? missing(resource, 'be loaded');
  const dispatch =
    (method: Method) =>
    async (resource: string, params: unknown): Promise<any> => {
      const fn = endpointsOf(resource)[method] as ((p: unknown) => Promise<unknown>) | undefined;
      return fn ? fn(params) : missing(resource, method);
    };
  return {
    getList: dispatch('getList'),
    getOne: dispatch('getOne'),
    getMany: async (resource, params) => {
      const endpoints = endpointsOf(resource);
      if (endpoints.getMany) return endpoints.getMany(params);
      // Without a batch endpoint, one getOne per id (react-admin dedupes and caches them).
      const getOne = endpoints.getOne ?? missing(resource, 'getMany');
      return Promise.all(params.ids.map((id) => getOne({ id }).then((result) => result.data))).then((data) => ({ data }));
    },
    getManyReference: dispatch('getManyReference'),
    create: dispatch('create'),
    update: dispatch('update'),
    updateMany: dispatch('updateMany'),
    delete: dispatch('delete'),
    deleteMany: dispatch('deleteMany'),
    call: (route, args) => callRoute(route, args),
    custom: async <T,>(resource: string, name: string, args?: unknown) => {
      const fn = endpointsOf(resource).custom?.[name];
      if (!fn) return missing(resource, name);
      return (await fn(args)) as T;
    },
  };
}
