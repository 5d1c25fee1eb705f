import { Link, Outlet } from "@remix-run/react";
import { LogoMark, PRODUCT_NAME } from "~/components/logo";

export default function AuthLayout() {
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <Link to="/" className="auth-brand">
          <LogoMark /> {PRODUCT_NAME}
        </Link>
        <Outlet />
      </div>
    </main>
  );
}
