import type {
  CreateParams,
  CreateResult,
  DeleteParams,
  DeleteResult,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetManyReferenceResult,
  GetManyResult,
  GetOneParams,
  GetOneResult,
  RaRecord,
  UpdateParams,
  UpdateResult,
} from 'ra-core';

/**
 * How one react-admin resource maps onto the spec's endpoints (src/dataProvider/resources/<name>.ts).
 * `R` is the record as the API answers it; `C` is what `create` takes (the form's transform output).
 * A method left out fails with a clear error; `getMany` falls back to `getOne` per id and
 * `getManyReference` to `getList` filtered by the target.
 */
export interface ResourceEndpoints<R extends RaRecord = RaRecord, C = Partial<R>> {
  getList?(params: GetListParams): Promise<GetListResult<R>>;
  getOne?(params: GetOneParams<R>): Promise<GetOneResult<R>>;
  getMany?(params: GetManyParams<R>): Promise<GetManyResult<R>>;
  getManyReference?(params: GetManyReferenceParams): Promise<GetManyReferenceResult<R>>;
  create?(params: CreateParams<C>): Promise<CreateResult<R>>;
  update?(params: UpdateParams<R>): Promise<UpdateResult<R>>;
  delete?(params: DeleteParams<R>): Promise<DeleteResult<R>>;
}

export type EndpointTable = Record<string, ResourceEndpoints<RaRecord, unknown>>;

/** Named calls of the platform that are not CRUD (approve, block, close position, exports...). */
export type ActionTable = Record<string, (...args: never[]) => Promise<unknown>>;

/** The filter object react-admin hands to getList, as the query string gave it (strings). */
export type ListFilter = Partial<Record<string, unknown>>;
