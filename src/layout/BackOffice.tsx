import { isValidElement, type ComponentType, type ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { CoreAdmin, CustomRoutes, Resource, ResourceContextProvider, memoryStore } from 'ra-core';
import LinearProgress from '@mui/material/LinearProgress';
import { authProvider } from '../authProvider/authProvider';
import { dataProvider } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { i18nProvider } from '../i18n';
import { NotFoundPage } from '../pages/NotFoundPage';
import { backOfficePaths, type BackOfficePathName } from '../pages/routes';
import { backOfficeModules } from '../resources';
import { AppLayout } from './AppLayout';
import type { BackOfficeModule } from './backOfficeModule';
import { ToLogin } from './ToLogin';

function elementOf(View: ComponentType | ReactNode): ReactNode {
  return isValidElement(View) ? View : typeof View === 'function' ? <View /> : null;
}

/** Each spec URL with the view or page it shows, inside its resource's context. */
function screensOf(module: BackOfficeModule): { name: BackOfficePathName; element: ReactNode }[] {
  const views = Object.entries(module.routes ?? {}).map(([name, view]) => ({ name: name as BackOfficePathName, element: elementOf(module.resource?.[view]) }));
  const pages = Object.entries(module.screens ?? {}).map(([name, Page]) => ({ name: name as BackOfficePathName, element: Page ? <Page /> : null }));
  const resource = module.resource?.name;
  return [...views, ...pages].map(({ name, element }) => ({
    name,
    element: resource ? <ResourceContextProvider value={resource}>{element}</ResourceContextProvider> : element,
  }));
}

const screens = backOfficeModules.flatMap(screensOf);
const queryClient = createQueryClient();

function Loading() {
  return <LinearProgress />;
}

/**
 * The signed-in part of the app (its own chunk): react-admin's core (the MUI theme comes from App;
 * react-admin's default layout, login and notification UI are not loaded) with one <Resource> per entity and
 * the spec's URLs as routes; the layout checks the session (checkAuth) and each URL's access
 * (canAccess). Public pages never load this file.
 */
export function BackOffice() {
  return (
    <CoreAdmin
      dataProvider={dataProvider}
      queryClient={queryClient}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      layout={AppLayout}
      loading={Loading}
      loginPage={false}
      catchAll={NotFoundPage}
      accessDenied={ToLogin}
      authenticationError={ToLogin}
      ready={NotFoundPage}
      store={memoryStore()}
      disableTelemetry
    >
      {backOfficeModules.map((module) => (module.resource ? <Resource key={module.resource.name} {...module.resource} /> : null))}
      <CustomRoutes>
        {screens.map(({ name, element }) => (
          <Route key={name} path={backOfficePaths[name].path} element={element} />
        ))}
      </CustomRoutes>
    </CoreAdmin>
  );
}
