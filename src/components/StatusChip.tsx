import Chip from '@mui/material/Chip';
import { AccountStatus, accountStatusLabels } from '../../contract/enums';

/** An account status (spec 4): Active (3) green, Blocked (2) red, any other red, or purple in the agent's customer list. */
export function StatusChip({ status, label, otherColor = 'error' }: { status: number; label?: string; otherColor?: 'error' | 'primary' }) {
  const color = status === AccountStatus.Active ? 'success' : status === AccountStatus.Blocked ? 'error' : otherColor;
  const text = label ?? accountStatusLabels[status as AccountStatus] ?? String(status);
  return <Chip size="small" color={color} label={text} variant="outlined" data-color={color} />;
}
