import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** Side panels: the three quick-connect steps, and why API keys are needed. */
export function ConnectPanels() {
  const translate = useTranslate();
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          {translate('app.connect.stepsTitle')}
        </Typography>
        <Stack component="ol" spacing={1} sx={{ pl: 2.5, m: 0 }}>
          {['step1', 'step2', 'step3'].map((key) => (
            <Typography component="li" variant="body2" key={key}>
              {translate(`app.connect.${key}`)}
            </Typography>
          ))}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          {translate('app.connect.whyTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.connect.whyText')}
        </Typography>
      </Paper>
    </Stack>
  );
}
