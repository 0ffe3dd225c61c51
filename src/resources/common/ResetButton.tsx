import RestartAlt from '@mui/icons-material/RestartAlt';
import Button from '@mui/material/Button';
import { useTranslate } from 'react-admin';

/** The reset-filters button of every list. */
export function ResetButton({ onClick }: { onClick: () => void }) {
  const translate = useTranslate();
  return (
    <Button variant="outlined" startIcon={<RestartAlt />} onClick={onClick}>
      {translate('app.lists.reset')}
    </Button>
  );
}
