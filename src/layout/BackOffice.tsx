import { Route } from 'react-router-dom';
import { Admin, CustomRoutes, Resource, memoryStore } from 'react-admin';
import { authProvider } from '../authProvider/authProvider';
import { createDataProvider } from '../dataProvider/dataProvider';
import type { EndpointTable } from '../dataProvider/types';
import { i18nProvider } from '../i18n';
import { NotFoundPage } from '../pages/NotFoundPage';
import { backOfficePaths, type BackOfficePathName } from '../pages/routes';
import { backOfficeModules } from '../resources';
import { AppLayout } from './AppLayout';
import { RouteGuard } from './RouteGuard';
import { theme } from './theme';

const endpoints: EndpointTable = Object.fromEntries(
  backOfficeModules.flatMap((module) => (module.resource && module.endpoints ? [[module.resource.name, module.endpoints]] : [])),
);
export const dataProvider = createDataProvider(endpoints);

const screens = backOfficeModules.flatMap((module) =>
  Object.entries(module.screens ?? {}).map(([name, Screen]) => ({ name: name as BackOfficePathName, Screen: Screen! })),
);

/**
 * The signed-in part of the app (its own chunk): react-admin with the spec's URLs as custom routes,
 * behind the route guard. Public pages never load this file.
 */
export function BackOffice() {
  return (
    <RouteGuard>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={AppLayout}
        theme={theme}
        loginPage={false}
        catchAll={NotFoundPage}
        ready={NotFoundPage}
        store={memoryStore()}
        disableTelemetry
      >
        {backOfficeModules.map((module) => (module.resource ? <Resource key={module.resource.name} {...module.resource} /> : null))}
        <CustomRoutes>
          {screens.map(({ name, Screen }) => (
            <Route key={name} path={backOfficePaths[name].path} element={<Screen />} />
          ))}
        </CustomRoutes>
      </Admin>
    </RouteGuard>
  );
}
