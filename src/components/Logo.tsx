import { useTranslate } from 'ra-core';

/** The platform's mark: a rising chart line in a rounded square. */
export function Logo({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  const translate = useTranslate();
  const background = inverted ? '#ffffff' : '#5b2bbf';
  const stroke = inverted ? '#5b2bbf' : '#ffffff';
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={translate('app.brand.logoAlt')}>
      <rect width="32" height="32" rx="8" fill={background} />
      <polyline points="6,22 12,16 17,19 26,9" fill="none" stroke={stroke} strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="26" cy="9" r="2.5" fill="#f5a623" />
    </svg>
  );
}
