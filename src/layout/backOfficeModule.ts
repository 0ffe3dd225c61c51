import type { ComponentType } from 'react';
import type { ResourceProps } from 'ra-core';
import type { ResourceEndpoints } from '../dataProvider/types';
import type { BackOfficePathName } from '../pages/routes';

/**
 * What a resource folder (or the dashboards) plugs into the back office. `src/resources/<name>/index.ts`
 * exports one and `src/resources/index.ts` lists it.
 *   resource:  the react-admin <Resource> (name, recordRepresentation, icon...); its views are not
 *              routed by react-admin because the spec's URLs differ from react-admin's defaults;
 *   screens:   the component shown at each named path of src/pages/routes.ts (the guard and the
 *              layout are added for you);
 *   endpoints: how getList/getOne/... of this resource reach the API (src/dataProvider/types.ts).
 */
export interface BackOfficeModule {
  resource?: Pick<ResourceProps, 'name' | 'recordRepresentation' | 'icon' | 'options'>;
  screens?: Partial<Record<BackOfficePathName, ComponentType>>;
  endpoints?: ResourceEndpoints;
}
