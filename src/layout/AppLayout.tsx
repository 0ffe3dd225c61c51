import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { AccountType } from '../../contract/enums';
import { useSignedInAccount } from './AccountContext';
import { menuFor } from './menus';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { MENU_TRANSITION_MS, MENU_WIDTH } from './theme';
import { useErrorFlags } from './useErrorFlags';
import { ScreenGuard } from './ScreenGuard';
import { ResultPopupProvider } from '../components/ResultPopupProvider';

/** react-admin's layout: the route guard, then the signed-in shell around the page. */
export function AppLayout({ children }: { children?: ReactNode }) {
  return (
    <ScreenGuard>
      <AppShell>{children}</AppShell>
    </ScreenGuard>
  );
}

/**
 * The signed-in shell: top bar, side menu of the role (collapsing in 300 ms; an overlay drawer
 * on small screens that closes when the backdrop is tapped), and the page.
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const { accountType } = useSignedInAccount();
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const flags = useErrorFlags(accountType === AccountType.Admin || accountType === AccountType.Employee);
  const entries = menuFor(accountType);
  const toggle = () => (small ? setMobileOpen((open) => !open) : setDesktopOpen((open) => !open));

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar onToggleMenu={toggle} />
      {small ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          transitionDuration={MENU_TRANSITION_MS}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { sx: { width: MENU_WIDTH } } }}
        >
          <Toolbar />
          <SideMenu entries={entries} flags={flags} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      ) : (
        <Box
          component="aside"
          data-open={desktopOpen}
          sx={{
            width: desktopOpen ? MENU_WIDTH : 0,
            flexShrink: 0,
            overflowX: 'hidden',
            transition: `width ${MENU_TRANSITION_MS}ms ease`,
            bgcolor: 'background.paper',
            borderRight: desktopOpen ? 1 : 0,
            borderColor: 'divider',
          }}
        >
          <Toolbar />
          <Box sx={{ width: MENU_WIDTH }}>
            <SideMenu entries={entries} flags={flags} />
          </Box>
        </Box>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 1.5, md: 3 } }}>
        <Toolbar />
        <ResultPopupProvider>{children}</ResultPopupProvider>
      </Box>
    </Box>
  );
}
