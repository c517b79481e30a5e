import type { ReactNode, SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

// Icons are decorative: every use sits next to text or inside a labelled control.
export function Icon({ size = 24, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const HomeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 10.5 12 3.5l8.5 7V20a1 1 0 0 1-1 1H15v-6H9v6H4.5a1 1 0 0 1-1-1z" />
  </Icon>
);
export const ReadsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 6.5C10.5 5 8 4.5 4 4.5v14c4 0 6.5.5 8 2 1.5-1.5 4-2 8-2v-14c-4 0-6.5.5-8 2zM12 6.5v14" />
  </Icon>
);
export const ExploreIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="m15.5 8.5-2 5-5 2 2-5z" />
  </Icon>
);
export const MessagesIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="5" width="18" height="14" rx="2.5" />
    <path d="m3.5 7 8.5 6 8.5-6" />
  </Icon>
);
export const BellIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15zM10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);
export const BookmarkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6.5 3.5h11v17L12 16.5l-5.5 4z" />
  </Icon>
);
export const PremiumIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M7 4h10l4 5-9 11L3 9zM3 9h18M9.5 4 12 20M14.5 4 12 20" />
  </Icon>
);
export const SettingsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 7h9M17 7h3M4 17h3M11 17h9" />
    <circle cx="15" cy="7" r="2" />
    <circle cx="9" cy="17" r="2" />
  </Icon>
);
export const DownloadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3.5v12M7 11l5 5 5-5M4.5 20h15" />
  </Icon>
);
export const HelpIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.6 9.3a2.5 2.5 0 1 1 3.4 2.3c-.6.3-1 .8-1 1.5v.6M12 16.8v.2" />
  </Icon>
);
export const ReplyIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 5.5h15v10.5H10l-5.5 4z" />
  </Icon>
);
export const LikeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 19.5S4.5 15 4.5 9.6A4 4 0 0 1 12 7.4a4 4 0 0 1 7.5 2.2c0 5.4-7.5 9.9-7.5 9.9z" />
  </Icon>
);
export const RepostIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 11V8.5a2 2 0 0 1 2-2h12M15.5 3.5l3 3-3 3M19.5 13v2.5a2 2 0 0 1-2 2h-12M8.5 20.5l-3-3 3-3" />
  </Icon>
);
export const ZapIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M13 3 5 13.5h6L10.5 21 19 10.5h-6z" />
  </Icon>
);
export const SearchIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4.5 4.5" />
  </Icon>
);
export const ArrowUpIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </Icon>
);
export const TrendingIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 16.5 9.5 10.5l4 4 7-7M15 7.5h5.5V13" />
  </Icon>
);

/** Filled badge: the accent circle carries the meaning, the tick is cut out of it. */
export const VerifiedIcon = ({ size = 16, ...rest }: IconProps) => (
  <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false" {...rest}>
    <path
      fill="currentColor"
      d="M8 .8 10 2.3l2.5-.2.7 2.4 2.1 1.4-.9 2.3.9 2.3-2.1 1.4-.7 2.4-2.5-.2L8 15.2l-2-1.5-2.5.2-.7-2.4L.7 10.1l.9-2.3-.9-2.3 2.1-1.4.7-2.4 2.5.2z"
    />
    <path d="m5.2 8.1 1.9 1.9 3.8-4" fill="none" stroke="var(--accent-contrast)" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);
