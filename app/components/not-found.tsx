import { ErrorPage } from "./error-page";

export function NotFoundPage() {
  return (
    <ErrorPage title="404">
      <p>Lo sentimos, no pudimos encontrar la página que buscas.</p>
    </ErrorPage>
  );
}
