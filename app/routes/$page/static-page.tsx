import type { StaticPage } from "./static-pages";

export function StaticPageView({ page, updated }: { page: StaticPage; updated: string }) {
  return (
    <article className="static-page">
      <h1>{page.title}</h1>
      <p className="muted">Última actualización: {updated}</p>
      {page.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {section.list ? (
            <ul>
              {section.list.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
