import { createTheme } from '@mui/material/styles';

export const brandPurple = '#5b2bbf';
export const brandPurpleDark = '#3a1887';
const disabledBackground = 'rgba(0, 0, 0, 0.06)';

/** One theme for the public pages and the back office. */
export const theme = createTheme({
  palette: {
    primary: { main: brandPurple, dark: brandPurpleDark, contrastText: '#ffffff' },
    secondary: { main: '#f5a623' },
    background: { default: '#f5f4fa' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
    // Links (names in tables, strategy ids...) in the brand colour, not the browser's blue (issue 10).
    MuiCssBaseline: {
      styleOverrides: {
        a: { color: brandPurple },
        'a:visited': { color: brandPurple },
        // A person who asks their system for less motion gets none (WCAG 2.3.3): menus, dialogs and ripples end at once.
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
    // A sortable column shows its arrow before it is sorted (issue 10); the sorted one stays darker.
    MuiTableSortLabel: { styleOverrides: { root: { '& .MuiTableSortLabel-icon': { opacity: 0.35 } } } },
    // A disabled input looks disabled: greyed background, not only lighter text (issue 10).
    MuiOutlinedInput: { styleOverrides: { root: { '&.Mui-disabled': { backgroundColor: disabledBackground } } } },
  },
});

/** The side menu opens and closes in 300 ms (spec 2). */
export const MENU_TRANSITION_MS = 300;
export const MENU_WIDTH = 260;
export const MENU_COLLAPSED_WIDTH = 0;
