/** Full wordmark from 781 px up, the mini mark below (CSS decides, so no JS and no layout shift). */
export function Logo() {
  return (
    <a href="/" className="logo" aria-label="ofertas, página principal">
      <svg className="logo-mini" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#e4572e" />
        <path d="M10 20.5a6 6 0 1 1 12 0 6 6 0 0 1-12 0zm3 0a3 3 0 1 0 6 0 3 3 0 0 0-6 0z" fill="#fff" transform="translate(0 -4.5)" />
        <path d="M20 7l4 4" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <span className="logo-full" aria-hidden="true">
        <svg viewBox="0 0 32 32" width="32" height="32">
          <rect width="32" height="32" rx="8" fill="#e4572e" />
          <path d="M10 20.5a6 6 0 1 1 12 0 6 6 0 0 1-12 0zm3 0a3 3 0 1 0 6 0 3 3 0 0 0-6 0z" fill="#fff" transform="translate(0 -4.5)" />
          <path d="M20 7l4 4" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
        </svg>
        <span className="logo-word">ofertas</span>
      </span>
    </a>
  );
}
