import sprite from "./icons.svg?url&no-inline";

type IconProps = { className?: string; title?: string };
type IconName = "cart" | "trash" | "heart" | "search" | "user" | "login" | "back" | "close" | "logout" | "lock";

/**
 * One <use> of the hashed, year-cached sprite (icons.svg) instead of the drawing inline: a card's
 * heart was 440 bytes of path in every page's HTML, 28 times on the home page, rendered by React
 * on every request and parsed again by the phone. `fill` is set here and not in the sprite, so the
 * favourite's CSS (`fill: currentColor`) reaches the heart through the <use>.
 */
function Icon({ name, className, title }: IconProps & { name: IconName }) {
  return (
    <svg
      className={className ?? "icon"}
      width="20"
      height="20"
      fill="none"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
    >
      {title ? <title>{title}</title> : null}
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

export const CartIcon = (p: IconProps) => <Icon name="cart" {...p} />;
export const TrashIcon = (p: IconProps) => <Icon name="trash" {...p} />;
export const HeartIcon = (p: IconProps) => <Icon name="heart" {...p} />;
export const SearchIcon = (p: IconProps) => <Icon name="search" {...p} />;
export const UserIcon = (p: IconProps) => <Icon name="user" {...p} />;
export const LoginIcon = (p: IconProps) => <Icon name="login" {...p} />;
export const BackIcon = (p: IconProps) => <Icon name="back" {...p} />;
export const CloseIcon = (p: IconProps) => <Icon name="close" {...p} />;
export const LogoutIcon = (p: IconProps) => <Icon name="logout" {...p} />;
export const LockIcon = (p: IconProps) => <Icon name="lock" {...p} />;
