import type { ComponentType } from 'react';
import type { ResourceProps } from 'ra-core';
import type { BackOfficePathName } from '../pages/routes';

/** The react-admin views a resource registers on its <Resource>. */
export type ViewName = 'list' | 'show' | 'edit' | 'create';

/**
 * What a resource folder (or the dashboards) plugs into the back office: `src/resources/<name>/index.ts`
 * exports one and `src/resources/index.ts` lists it.
 *   resource: the react-admin <Resource> with its views (list, show, edit, create), icon and recordRepresentation;
 *   routes:   which view each spec URL of src/pages/routes.ts shows (react-admin's own URLs such as
 *             /customers/5/show are not the spec's, so the views are mounted at the spec's URLs);
 *   screens:  pages that are not a resource view (dashboards), by spec URL.
 * The layout's guard checks each URL's access before the view renders.
 */
export interface BackOfficeModule {
  resource?: Pick<ResourceProps, 'name' | 'recordRepresentation' | 'icon' | 'options' | ViewName>;
  routes?: Partial<Record<BackOfficePathName, ViewName>>;
  screens?: Partial<Record<BackOfficePathName, ComponentType>>;
}
