import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { seo } from "#app/lib/seo";

export const meta: MetaFunction = () => seo({ title: "Entrar", description: "Accede a tu cuenta de ofertas.", noindex: true });

export default function Login() {
  return (
    <section className="narrow">
      <h1>Entrar</h1>
      <p>
        Para comprar no necesitas cuenta: basta con tu correo electrónico. Al pagar verás tus cupones en pantalla,
        listos para guardar.
      </p>
      <p>El acceso con cuenta, con el que guardarás tus favoritos y tu historial de pedidos, estará disponible muy pronto.</p>
      <p>
        <Link to="/ofertas/" className="btn">
          Ver ofertas
        </Link>
      </p>
    </section>
  );
}
