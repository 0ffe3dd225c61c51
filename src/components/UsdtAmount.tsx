import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** A USDT amount's figure: 1,234.50. */
export const usdtFormatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * A USDT amount. A wallet amount of 0 or less shows red (spec 9); other amounts (earnings, PnL)
 * pass `redAtZero={false}` and show red only below 0.
 */
export function UsdtAmount({ value, redAtZero = true, ...props }: { value: number | string | null | undefined; redAtZero?: boolean } & Omit<TypographyProps, 'children'>) {
  const translate = useTranslate();
  const amount = Number(value ?? 0);
  const safe = Number.isFinite(amount) ? amount : 0;
  const red = redAtZero ? safe <= 0 : safe < 0;
  return (
    <Typography component="span" variant="inherit" color={red ? 'error' : 'inherit'} data-negative={red} {...props}>
      {usdtFormatter.format(safe)} {translate('app.components.currency')}
    </Typography>
  );
}
