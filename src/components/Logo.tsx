/** The Strucc mark: an ostrich in profile, head up, mid-stride. Same drawing as public/favicon.svg. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo-mark">
      <circle cx="32" cy="32" r="31" fill="var(--logo-bg, #fff1e6)" />
      <g transform="translate(-11.1 -4.8) scale(1.15)">
      <path d="M23 32c-2.2-6-2.8-11.5-1.8-17" fill="none" stroke="var(--logo-ink, #2b211c)" strokeWidth="3.4" strokeLinecap="round" />
      <path d="M19 10.5c2-2 5.3-1.9 6.6.4.6 1.1.3 2.6-.9 3.2l-3.9 1.7c-1.6.7-3.4-.2-3.5-1.9-.1-1.3.7-2.5 1.7-3.4z" fill="var(--logo-ink, #2b211c)" />
      <path d="m25.6 11.4 6.4 1.9-6.2 1.9z" fill="var(--logo-beak, #f0913a)" />
      <circle cx="22" cy="11.6" r="1" fill="var(--logo-bg, #fff1e6)" />
      <path
        d="M20.5 36.5c0-6.4 6.3-10 14.5-10 6 0 10.6 2 13.2 5.2l6.3-2.6c1.2-.5 2.2.9 1.3 1.9l-3.9 4.3c.4 5.4-5.3 9.7-13.2 9.7h-8.6c-5.5 0-9.6-3.3-9.6-8.5z"
        fill="var(--logo-accent, #e2572b)"
      />
      <path d="M31 33.5c4-1.6 8.7-1.5 12.5.7" fill="none" stroke="var(--logo-bg, #fff1e6)" strokeWidth="1.8" strokeLinecap="round" opacity=".75" />
      <path d="M30 44.5 28.5 55h-3.6M37.5 44.5l3 10.5h3.6" fill="none" stroke="var(--logo-ink, #2b211c)" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      </g>
    </svg>
  );
}
