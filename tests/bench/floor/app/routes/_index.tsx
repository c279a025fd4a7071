import { useLoaderData } from "@remix-run/react";

export function loader() {
  return Array.from({ length: 24 }, (_, i) => ({
    id: `oferta-${i + 1}`,
    title: `Oferta número ${i + 1} con descuento en tu ciudad`,
    summary: "Un plan para dos con todo incluido, a mitad de precio durante esta semana.",
    price: (19 + i).toFixed(2),
    image: `/images/${i + 1}.webp`,
  }));
}

export default function Index() {
  const items = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Ofertas</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/ofertas/${item.id}/`}>
              <img src={item.image} alt="" width={400} height={250} />
              <h2>{item.title}</h2>
              <p>{item.summary}</p>
              <strong>{item.price} €</strong>
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
