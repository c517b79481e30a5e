/** Icons of the note menu, drawn like the shared ones in Icons.tsx (decorative, 24-unit grid). */
import { Icon as SharedIcon, type IconProps } from '../Icons';

type Props = { size?: number };

/** Menu icons are a size smaller than the shared ones. */
const Icon = ({ size = 18, children, ...rest }: IconProps) => (
  <SharedIcon size={size} {...rest}>
    {children}
  </SharedIcon>
);

export const MoreIcon = ({ size = 20 }: Props) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <circle cx="5.5" cy="12" r="1.7" />
    <circle cx="12" cy="12" r="1.7" />
    <circle cx="18.5" cy="12" r="1.7" />
  </svg>
);

export const LinkIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </Icon>
);

export const CopyIcon = (p: Props) => (
  <Icon {...p}>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
    <path d="M15.5 8.5V6.5a2 2 0 0 0-2-2h-7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h2" />
  </Icon>
);

export const HashIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M9.5 4 7.5 20M16.5 4l-2 16M4.5 9h16M3.5 15h16" />
  </Icon>
);

export const CodeIcon = (p: Props) => (
  <Icon {...p}>
    <path d="m8.5 7-5 5 5 5M15.5 7l5 5-5 5" />
  </Icon>
);

export const UserIcon = (p: Props) => (
  <Icon {...p}>
    <circle cx="12" cy="8" r="3.5" />
    <path d="M5 20a7 7 0 0 1 14 0" />
  </Icon>
);

export const BroadcastIcon = (p: Props) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="1.8" />
    <path d="M8.2 15.8a5.4 5.4 0 0 1 0-7.6M15.8 8.2a5.4 5.4 0 0 1 0 7.6M5.4 18.6a9.3 9.3 0 0 1 0-13.2M18.6 5.4a9.3 9.3 0 0 1 0 13.2" />
  </Icon>
);

export const MuteIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M4.5 9.5h3l4.5-4v13l-4.5-4h-3zM16 9.5l5 5M21 9.5l-5 5" />
  </Icon>
);

export const FlagIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M5.5 21V4M5.5 4.5h11l-2 4 2 4h-11" />
  </Icon>
);

export const TrashIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13M10.5 11v5.5M13.5 11v5.5" />
  </Icon>
);

export const QuoteIcon = (p: Props) => (
  <Icon {...p}>
    <path d="M5 11.5h4.5V17H5zM5 11.5c0-3 1.5-4.5 4-5M14 11.5h4.5V17H14zM14 11.5c0-3 1.5-4.5 4-5" />
  </Icon>
);
