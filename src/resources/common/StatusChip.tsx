import Chip from '@mui/material/Chip';
import { AccountStatus, accountStatusLabels } from '../../../contract/enums';

/** An account status: Active green, Blocked red, others red (or purple in the agent's customer list). */
export function StatusChip({ status, label, otherColor = 'error' }: { status: number; label?: string; otherColor?: 'error' | 'secondary' }) {
  const color = status === AccountStatus.Active ? 'success' : status === AccountStatus.Blocked ? 'error' : otherColor;
  const text = label ?? accountStatusLabels[status as AccountStatus] ?? String(status);
  return <Chip size="small" color={color} label={text} variant="outlined" />;
}
