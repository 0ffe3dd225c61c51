import type {
  CreateParams,
  CreateResult,
  DeleteManyParams,
  DeleteManyResult,
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
  UpdateManyParams,
  UpdateManyResult,
  UpdateParams,
  UpdateResult,
} from 'ra-core';

/**
 * How one react-admin resource maps onto the spec's endpoints. Each resource folder exports one
 * of these (e.g. `src/resources/strategies/endpoints.ts`); a missing method fails with a clear error.
 * `custom` holds resource-specific calls reachable through `dataProvider.custom(resource, name, args)`.
 */
export interface ResourceEndpoints<R extends RaRecord = any> {
  getList?: (params: GetListParams) => Promise<GetListResult<R>>;
  getOne?: (params: GetOneParams<R>) => Promise<GetOneResult<R>>;
  getMany?: (params: GetManyParams<R>) => Promise<GetManyResult<R>>;
  getManyReference?: (params: GetManyReferenceParams) => Promise<GetManyReferenceResult<R>>;
  create?: (params: CreateParams) => Promise<CreateResult<R>>;
  update?: (params: UpdateParams<R>) => Promise<UpdateResult<R>>;
  updateMany?: (params: UpdateManyParams) => Promise<UpdateManyResult<R>>;
  delete?: (params: DeleteParams<R>) => Promise<DeleteResult<R>>;
  deleteMany?: (params: DeleteManyParams<R>) => Promise<DeleteManyResult<R>>;
  custom?: Record<string, (args: any) => Promise<unknown>>;
}

export type EndpointTable = Record<string, ResourceEndpoints>;
