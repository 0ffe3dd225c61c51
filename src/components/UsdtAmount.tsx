import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** A USDT amount's figure: 1,234.50. */
export const usdtFormatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A USDT amount; 0 or less shows red (spec 9). */
export function UsdtAmount({ value, ...props }: { value: number | string | null | undefined } & Omit<TypographyProps, 'children'>) {
  const translate = useTranslate();
  const amount = Number(value ?? 0);
  const safe = Number.isFinite(amount) ? amount : 0;
  return (
    <Typography component="span" variant="inherit" color={safe <= 0 ? 'error' : 'inherit'} data-negative={safe <= 0} {...props}>
      {usdtFormatter.format(safe)} {translate('app.components.currency')}
    </Typography>
  );
}
