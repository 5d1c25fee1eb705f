export function LogoMark({ size = 30 }: { size?: number }) {
  return (
    <svg className="logo-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path d="M10 8h8a6 6 0 0 1 0 12h-4v4h-4z" fill="#fff" />
      <path d="M14 12h4a2 2 0 0 1 0 4h-4z" fill="#4f46e5" />
    </svg>
  );
}

export const PRODUCT_NAME = "PRD Studio";
