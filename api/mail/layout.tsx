import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import { render } from "@react-email/render";
import type { ReactElement, ReactNode } from "react";

// Mail clients ignore external CSS and most of <style>; inline styles carry the look, and the
// dark-mode block only swaps colours for clients that honour prefers-color-scheme (Apple Mail, iOS).
export const colors = { brand: "#b83a17", ink: "#1f2328", muted: "#4b5563", line: "#e5e7eb", bg: "#f5f5f4", card: "#ffffff" };

const darkMode = `
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  @media (prefers-color-scheme: dark) {
    .m-body, .m-body > table > tbody > tr > td { background: #111315 !important; }
    .m-card { background: #1c1f23 !important; border-color: #33373d !important; }
    .m-ink, .m-card p, .m-card td, .m-card h1, .m-card h2 { color: #f3f4f6 !important; }
    .m-muted { color: #c7ccd3 !important; }
    .m-link { color: #ff9b7a !important; }
    .m-button { background: #ff9b7a !important; color: #111315 !important; }
    .m-code { background: #2a2e33 !important; color: #ffffff !important; }
  }
`;

export const text = { margin: "0 0 12px", fontSize: "16px", lineHeight: "24px", color: colors.ink };
export const muted = { ...text, fontSize: "14px", lineHeight: "20px", color: colors.muted };
export const heading = { margin: "0 0 16px", fontSize: "22px", lineHeight: "28px", color: colors.ink, fontWeight: 700 };
export const button = {
  display: "inline-block",
  background: colors.brand,
  color: "#ffffff",
  padding: "12px 20px",
  borderRadius: "8px",
  fontWeight: 700,
  fontSize: "16px",
  textDecoration: "none",
};

export function Layout({
  preview,
  children,
  footer,
  origin,
}: {
  preview: string;
  children: ReactNode;
  footer?: ReactNode;
  origin: string;
}) {
  return (
    <Html lang="es" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{darkMode}</style>
      </Head>
      <Preview>{preview}</Preview>
      <Body
        className="m-body"
        style={{
          background: colors.bg,
          margin: 0,
          padding: "16px 8px",
          fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
        }}
      >
        <Container style={{ maxWidth: "560px", width: "100%" }}>
          <Text style={{ margin: "0 0 12px 4px", fontSize: "22px", fontWeight: 800, color: colors.brand }}>
            <Link className="m-link" href={origin} style={{ color: colors.brand, textDecoration: "none" }}>
              ofertas
            </Link>
          </Text>
          <Section
            className="m-card"
            style={{ background: colors.card, border: `1px solid ${colors.line}`, borderRadius: "12px", padding: "20px" }}
          >
            {children}
          </Section>
          <Hr style={{ borderColor: "transparent", margin: "8px 0" }} />
          <Section style={{ padding: "0 4px" }}>{footer}</Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The HTML and its plain-text form, both from the one component. */
export async function renderBoth(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, plain] = await Promise.all([
    render(element),
    render(element, {
      plainText: true,
      // Spanish titles in capitals read as shouting and lose their accents' clarity.
      htmlToTextOptions: { wordwrap: 78, selectors: ["h1", "h2", "h3"].map((selector) => ({ selector, options: { uppercase: false } })) },
    }),
  ]);
  return { html, text: plain };
}
