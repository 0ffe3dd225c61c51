import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import InputBase from '@mui/material/InputBase';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslate } from 'ra-core';
import { ExchangeLogo } from './ExchangeLogo';
import { searchExchanges, type ExchangeEntry } from './exchanges';

function Row({ entry }: { entry: ExchangeEntry }) {
  const translate = useTranslate();
  return (
    <>
      <ExchangeLogo exchange={entry.id} title={translate('app.connect.logoAlt', { exchange: entry.name })} />
      <Typography sx={{ fontWeight: 600 }}>{entry.name}</Typography>
      <Chip
        size="small"
        sx={{ ml: 'auto' }}
        color={entry.enabled ? 'success' : 'default'}
        label={translate(entry.enabled ? 'app.connect.quickConnect' : 'app.connect.comingSoon')}
      />
    </>
  );
}

/** The exchange picker: logo and name, 'Quick Connect' or 'Coming soon'; a click outside closes it. */
export function ExchangeDropdown({ value, onChange }: { value: ExchangeEntry | undefined; onChange: (entry: ExchangeEntry) => void }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const entries = searchExchanges(text);
  return (
    <ClickAwayListener onClickAway={() => setOpen(false)}>
      <Box sx={{ position: 'relative' }}>
        <ButtonBase
          onClick={() => setOpen((current) => !current)}
          aria-haspopup="listbox"
          aria-expanded={open}
          sx={{ width: '100%', display: 'flex', gap: 1.5, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', justifyContent: 'flex-start' }}
        >
          {value ? <Row entry={value} /> : <Typography color="text.secondary">{translate('app.connect.selectExchange')}</Typography>}
          <ExpandMore sx={{ ml: value ? 1 : 'auto' }} />
        </ButtonBase>
        {open ? (
          <Paper elevation={6} sx={{ position: 'absolute', top: '100%', left: 0, right: 0, mt: 0.5, zIndex: 10, p: 1 }}>
            <InputBase
              autoFocus
              fullWidth
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={translate('app.connect.selectExchange')}
              inputProps={{ 'aria-label': translate('app.connect.selectExchange') }}
              sx={{ px: 1, py: 0.5, mb: 0.5, border: 1, borderColor: 'divider', borderRadius: 1 }}
            />
            <Box role="listbox">
              {entries.length === 0 ? (
                <Typography sx={{ p: 1.5 }} color="text.secondary">
                  {translate('app.connect.noResults')}
                </Typography>
              ) : (
                entries.map((entry) => (
                  <ButtonBase
                    key={entry.id}
                    role="option"
                    aria-selected={value?.id === entry.id}
                    aria-disabled={!entry.enabled}
                    disabled={!entry.enabled}
                    onClick={() => {
                      onChange(entry);
                      setOpen(false);
                    }}
                    sx={{ width: '100%', display: 'flex', gap: 1.5, p: 1.25, borderRadius: 1, justifyContent: 'flex-start', opacity: entry.enabled ? 1 : 0.5, '&:hover': { bgcolor: 'action.hover' } }}
                  >
                    <Row entry={entry} />
                  </ButtonBase>
                ))
              )}
            </Box>
          </Paper>
        ) : null}
      </Box>
    </ClickAwayListener>
  );
}
