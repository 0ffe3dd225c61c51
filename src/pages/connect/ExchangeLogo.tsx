import { Exchange } from '../../../contract/enums';

/** Simple local drawings of each exchange's mark (no third-party hosts: the CSP forbids them). */
export function ExchangeLogo({ exchange, size = 32, title }: { exchange: Exchange; size?: number; title: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={title}>
      {exchange === Exchange.Bitget ? (
        <>
          <rect width="32" height="32" rx="8" fill="#00c2c7" />
          <path d="M9 9h8l-5 7 5 7H9l5-7z" fill="#ffffff" />
          <path d="M17 9h6l-5 7 5 7h-6l5-7z" fill="#0b2f3a" opacity="0.85" />
        </>
      ) : null}
      {exchange === Exchange.Bybit ? (
        <>
          <rect width="32" height="32" rx="8" fill="#17181e" />
          <rect x="7" y="11" width="4" height="10" rx="1" fill="#ffffff" />
          <rect x="13" y="8" width="4" height="16" rx="1" fill="#f7a600" />
          <rect x="19" y="13" width="4" height="8" rx="1" fill="#ffffff" />
          <rect x="25" y="10" width="2" height="12" rx="1" fill="#ffffff" />
        </>
      ) : null}
      {exchange === Exchange.Binance ? (
        <>
          <rect width="32" height="32" rx="8" fill="#1e2026" />
          <path d="M16 6l4 4-4 4-4-4z M9 13l3 3-3 3-3-3z M23 13l3 3-3 3-3-3z M16 18l4 4-4 4-4-4z M16 13l3 3-3 3-3-3z" fill="#f3ba2f" />
        </>
      ) : null}
      {exchange === Exchange.Okx ? (
        <>
          <rect width="32" height="32" rx="8" fill="#000000" />
          {[
            [8, 8],
            [18, 8],
            [13, 13],
            [8, 18],
            [18, 18],
          ].map(([x, y]) => (
            <rect key={`${x}-${y}`} x={x} y={y} width="6" height="6" fill="#ffffff" />
          ))}
        </>
      ) : null}
    </svg>
  );
}
