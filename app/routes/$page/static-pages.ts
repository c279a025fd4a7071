/**
 * Texts of the static informational and legal pages (contacts, terms of use,
 * commercial consent, privacy and cookie policies). The contact addresses come
 * from configuration so the same texts serve every environment.
 */

import { WITHDRAWAL_DAYS } from "#rules/refunds";

export type StaticSection = { heading: string; paragraphs: string[]; list?: string[] };

export type StaticPage = {
  slug: "contacts" | "agreement" | "marketing-agreement" | "privacy-policy" | "cookie-policy";
  title: string;
  description: string;
  /** Date of the last revision, "YYYY-MM-DD". */
  updated: string;
  sections: StaticSection[];
};

const UPDATED = "2026-11-01";

const COMPANY = "Ofertas Irresistibles S.L.";
const CIF = "B12345678";
const ADDRESS = "Calle de Alcalá 123, 28009 Madrid";

export function staticPages(contacts: { supportEmail: string; businessEmail: string }): Record<StaticPage["slug"], StaticPage> {
  const { supportEmail, businessEmail } = contacts;

  const contactsPage: StaticPage = {
    slug: "contacts",
    title: "Nuestros contactos",
    description:
      "Cómo contactar con el servicio de atención al cliente de Ofertas y cómo publicar las ofertas de tu negocio en nuestra plataforma.",
    updated: UPDATED,
    sections: [
      {
        heading: "Atención al cliente",
        paragraphs: [
          `Si tienes cualquier duda sobre una oferta, un pedido o un cupón, escríbenos a ${supportEmail}. Nuestro equipo de atención al cliente estudiará tu consulta y te responderá en un plazo de 24 a 48 horas laborables.`,
          "Atendemos los mensajes de lunes a viernes, de 9:00 a 18:00 (hora peninsular española), excepto los días festivos nacionales y los de la Comunidad de Madrid. Los mensajes recibidos fuera de este horario se responden por orden de llegada a partir del siguiente día laborable.",
        ],
      },
      {
        heading: "Qué incluir en tu mensaje",
        paragraphs: ["Para que podamos ayudarte a la primera, te recomendamos que tu mensaje incluya la siguiente información:"],
        list: [
          "El número de pedido que aparece en el correo de confirmación de compra.",
          "El código del cupón afectado, si tu consulta se refiere a un cupón concreto.",
          "La dirección de correo electrónico con la que realizaste la compra.",
          "El nombre de la oferta y del establecimiento que la presta.",
          "Una descripción breve del problema y, si es posible, capturas de pantalla o documentos que ayuden a entenderlo.",
        ],
      },
      {
        heading: "Antes de escribirnos",
        paragraphs: [
          "Las condiciones de cada oferta (qué incluye, fechas de validez, horarios, necesidad de reserva previa y restricciones) se detallan en la propia ficha de la oferta y en el cupón. Revisarlas suele resolver la mayoría de las dudas sobre el canje.",
          "Si tu consulta trata sobre la reserva de fecha u hora para disfrutar del servicio, ponte en contacto directamente con el establecimiento usando los datos que figuran en tu cupón: es quien gestiona su agenda. Si el establecimiento no responde o no respeta las condiciones de la oferta, avísanos y mediaremos para encontrar una solución.",
        ],
      },
      {
        heading: "Empresas y establecimientos",
        paragraphs: [
          `¿Tienes un restaurante, un centro de bienestar, una actividad de ocio o un alojamiento y quieres dar a conocer tu negocio a miles de clientes? Escríbenos a ${businessEmail} indicando el nombre de tu negocio, la provincia en la que operas, el tipo de servicio que ofreces y un teléfono de contacto.`,
          "Un miembro de nuestro equipo comercial se pondrá en contacto contigo para explicarte cómo funciona la publicación de ofertas, las condiciones de colaboración y los pasos para empezar a vender.",
        ],
      },
      {
        heading: "Dirección postal",
        paragraphs: [
          `${COMPANY} (CIF ${CIF}), ${ADDRESS}, España.`,
          "Esta dirección es para correspondencia escrita. No disponemos de atención presencial al público, por lo que te pedimos que utilices preferentemente el correo electrónico: es la vía más rápida para resolver tu consulta.",
        ],
      },
      {
        heading: "Protección de datos",
        paragraphs: [
          `Para ejercer tus derechos de protección de datos (acceso, rectificación, supresión, oposición, limitación y portabilidad) o retirar tu consentimiento para recibir comunicaciones comerciales, escribe a ${supportEmail} indicando en el asunto «Protección de datos». Encontrarás toda la información en nuestra Política de privacidad.`,
        ],
      },
    ],
  };

  const agreementPage: StaticPage = {
    slug: "agreement",
    title: "Acuerdo De Usuario",
    description:
      "Condiciones de uso de Ofertas: cómo funciona la compra de cupones, pagos, validez, desistimiento, reembolsos y responsabilidades.",
    updated: UPDATED,
    sections: [
      {
        heading: "1. Objeto",
        paragraphs: [
          "Este Acuerdo de Usuario regula el acceso y el uso del sitio web Ofertas, así como la compra de cupones a través de él. Al realizar una compra, aceptas estas condiciones en la versión vigente en ese momento.",
          "Podemos actualizar este acuerdo, pero los cambios nunca afectarán a los cupones ya adquiridos.",
        ],
      },
      {
        heading: "2. Quiénes somos",
        paragraphs: [
          `El sitio web es titularidad de ${COMPANY}, con CIF ${CIF} y domicilio social en ${ADDRESS}. Puedes contactar con nosotros en ${supportEmail}.`,
        ],
      },
      {
        heading: "3. Cómo funciona la compra",
        paragraphs: [
          "Ofertas es un mercado en línea en el que publicamos ofertas con descuento de establecimientos colaboradores: restaurantes, centros de bienestar, actividades de ocio, viajes y otros servicios. Lo que compras en nuestro sitio es un cupón que da derecho a disfrutar del servicio descrito en la oferta, en las condiciones indicadas en ella.",
          "El servicio lo presta directamente el establecimiento colaborador. Nosotros actuamos como intermediarios: publicamos la oferta, gestionamos el cobro y te entregamos el cupón.",
          "Para comprar, selecciona la oferta y, en su caso, la opción que prefieras, añádela al carrito, indica tus datos de contacto y completa el pago. El contrato se entiende celebrado cuando recibes el correo electrónico de confirmación del pedido.",
        ],
      },
      {
        heading: "4. Precios y pago",
        paragraphs: [
          "Todos los precios se muestran en euros e incluyen el IVA y cualquier otro impuesto aplicable. Cualquier gasto adicional que deba abonarse en el establecimiento, como una tasa turística, se indicará claramente en la ficha de la oferta.",
          "El pago se realiza en línea a través de un proveedor de pagos seguro. No almacenamos los números de tu tarjeta: los datos de pago se introducen y se procesan directamente en los sistemas del proveedor. Si el pago es rechazado o no se completa, el pedido no se confirma y no se emite ningún cupón.",
        ],
      },
      {
        heading: "5. Entrega y validez de los cupones",
        paragraphs: [
          "Una vez confirmado el pago, verás tus cupones en la página de confirmación de la compra y te los enviaremos por correo electrónico, con un PDF para imprimir, a la dirección indicada en el pedido. Cada cupón tiene un código único que el establecimiento utilizará para validarlo en el momento del canje.",
          "Cada cupón es válido durante el periodo indicado en la oferta y solo para el servicio descrito en ella. Una vez vencido, no podrá canjearse. Trata el código de tu cupón como si fuera dinero en efectivo: no lo compartas con terceros si no quieres que lo utilicen en tu lugar. Salvo que la oferta indique lo contrario, puedes regalar el cupón a otra persona.",
        ],
      },
      {
        heading: "6. Reservas con el establecimiento",
        paragraphs: [
          "Muchas ofertas requieren reserva previa. En ese caso, deberás contactar con el establecimiento por los medios indicados en el cupón con la antelación suficiente y siempre dentro del periodo de validez. La disponibilidad depende del establecimiento, así que te recomendamos reservar cuanto antes.",
          "Si necesitas cambiar o anular una reserva ya hecha, comunícaselo al establecimiento respetando el plazo que indique la oferta. No acudir a una reserva sin haberla anulado a tiempo puede suponer que el cupón se considere canjeado.",
        ],
      },
      {
        heading: "7. Desistimiento, cancelación y reembolsos",
        paragraphs: [
          `De acuerdo con el Real Decreto Legislativo 1/2007, por el que se aprueba el texto refundido de la Ley General para la Defensa de los Consumidores y Usuarios, dispones de un plazo de ${WITHDRAWAL_DAYS} días naturales desde la fecha de compra para desistir del contrato sin necesidad de justificación, siempre que el cupón no haya sido canjeado.`,
          `Para ejercer el desistimiento, escribe a ${supportEmail} indicando tu número de pedido y el código del cupón. Te reembolsaremos el importe pagado por ese cupón utilizando el mismo medio de pago empleado en la compra, en un plazo máximo de 14 días naturales desde que recibamos tu solicitud. El cupón quedará anulado en ese momento.`,
          "Una vez canjeado el cupón, o cuando el servicio se haya prestado por completo, no podrá ejercerse el derecho de desistimiento. Tampoco procede en las ofertas de servicios de alojamiento, transporte, restauración o actividades de ocio para una fecha o periodo de ejecución específicos, conforme al artículo 103 de dicha norma; cuando sea así, se indicará claramente en la ficha de la oferta.",
          "Si el establecimiento no puede prestar el servicio en las condiciones ofrecidas, cesa su actividad o cancela la oferta, te reembolsaremos íntegramente el importe de los cupones no canjeados, aunque haya transcurrido el plazo de desistimiento.",
        ],
      },
      {
        heading: "8. Responsabilidades",
        paragraphs: [
          "Nos responsabilizamos de la correcta publicación de la información de las ofertas que nos facilitan los establecimientos, de la gestión del pago y de la entrega del cupón. El establecimiento colaborador es responsable de la prestación del servicio, de su calidad y de cumplir las condiciones publicadas.",
          "Si tienes cualquier incidencia con un establecimiento, comunícanosla: mediaremos para encontrar una solución y, cuando proceda, gestionaremos el reembolso. Nada de lo dispuesto en este acuerdo limita los derechos que la legislación de consumo te reconoce.",
        ],
      },
      {
        heading: "9. Obligaciones del usuario",
        paragraphs: ["Al utilizar el sitio te comprometes a:"],
        list: [
          "Facilitar datos veraces y mantener actualizada tu dirección de correo electrónico.",
          "Ser mayor de edad o contar con la autorización de tus padres o tutores para realizar compras.",
          "Utilizar los cupones conforme a las condiciones de cada oferta y no revenderlos con fines comerciales.",
          "No falsificar, duplicar ni manipular los códigos de los cupones.",
          "No hacer un uso del sitio que pueda dañarlo o impedir su normal funcionamiento.",
        ],
      },
      {
        heading: "10. Propiedad intelectual e industrial",
        paragraphs: [
          `Los contenidos del sitio (textos, diseño, logotipos, código y selección de ofertas) son titularidad de ${COMPANY} o de los establecimientos colaboradores y están protegidos por la legislación de propiedad intelectual e industrial. No está permitida su reproducción, distribución o transformación sin autorización previa, salvo para tu uso personal y privado.`,
        ],
      },
      {
        heading: "11. Legislación aplicable y jurisdicción",
        paragraphs: [
          "Este acuerdo se rige por la legislación española. Para cualquier controversia, serán competentes los juzgados y tribunales del domicilio del consumidor.",
          `Antes de acudir a los tribunales, te animamos a contactar con nosotros en ${supportEmail} para intentar resolver la cuestión de forma amistosa. También puedes acudir a la plataforma europea de resolución de litigios en línea (plataforma ODR), disponible en https://ec.europa.eu/consumers/odr, o a las juntas arbitrales de consumo.`,
        ],
      },
    ],
  };

  const marketingPage: StaticPage = {
    slug: "marketing-agreement",
    title: "Consentimiento comercial",
    description:
      "Qué aceptas al recibir nuestras ofertas por correo electrónico, cómo personalizamos los envíos y cómo puedes darte de baja en cualquier momento.",
    updated: UPDATED,
    sections: [
      {
        heading: "A qué das tu consentimiento",
        paragraphs: [
          `Al marcar la casilla de consentimiento comercial, aceptas que ${COMPANY} (CIF ${CIF}, ${ADDRESS}) te envíe por correo electrónico comunicaciones comerciales sobre las ofertas publicadas en nuestro sitio: nuevas ofertas, descuentos, promociones de temporada y selecciones de planes.`,
          "Solo te enviaremos comunicaciones sobre productos y servicios que se pueden comprar en Ofertas. No cederemos tu dirección de correo a los establecimientos colaboradores ni a otras empresas para que te envíen su propia publicidad.",
        ],
      },
      {
        heading: "Comunicaciones personalizadas",
        paragraphs: [
          "Para que los correos te resulten útiles, adaptamos su contenido a tus preferencias a partir de la siguiente información:",
        ],
        list: [
          "La región o provincia que has seleccionado en el sitio o en la que sueles comprar.",
          "Las categorías de ofertas que te interesan (restaurantes, bienestar, ocio, viajes…), deducidas de tus compras y de las preferencias que nos indiques.",
          "Tu interacción con nuestros correos, como la apertura de los mensajes o los enlaces en los que haces clic, que utilizamos de forma agregada para mejorar los envíos.",
        ],
      },
      {
        heading: "Base jurídica",
        paragraphs: [
          "El tratamiento de tus datos con esta finalidad se basa en tu consentimiento, de acuerdo con el artículo 6.1.a) del Reglamento (UE) 2016/679, General de Protección de Datos (RGPD), y con el artículo 21 de la Ley 34/2002, de Servicios de la Sociedad de la Información y de Comercio Electrónico (LSSI), que exige el consentimiento previo y expreso para el envío de comunicaciones comerciales por medios electrónicos.",
          "Dar este consentimiento es totalmente voluntario. La casilla nunca aparece marcada de antemano.",
        ],
      },
      {
        heading: "Cómo retirar tu consentimiento",
        paragraphs: ["Puedes retirar tu consentimiento en cualquier momento, de forma sencilla y gratuita, por cualquiera de estas vías:"],
        list: [
          "Pulsando el enlace para darte de baja que incluimos al final de todos nuestros correos comerciales.",
          `Escribiendo a ${supportEmail} desde la dirección de correo en la que recibes las comunicaciones, con el asunto «Baja de comunicaciones comerciales».`,
        ],
      },
      {
        heading: "Sin efecto en tus compras",
        paragraphs: [
          "Aceptar o rechazar las comunicaciones comerciales no influye en tu posibilidad de comprar en Ofertas ni en las condiciones de tus compras. Tampoco afecta a los correos necesarios para gestionar tus pedidos, como la confirmación de compra, el envío de los cupones o los avisos sobre incidencias, que seguirás recibiendo aunque te des de baja.",
          "La retirada del consentimiento no afecta a la licitud de los envíos realizados antes de que lo retiraras. Tras tu solicitud, dejarás de recibir comunicaciones en un plazo máximo de 10 días, aunque normalmente se aplica de inmediato.",
        ],
      },
      {
        heading: "Conservación de los datos",
        paragraphs: [
          "Conservaremos tus datos para esta finalidad mientras mantengas tu consentimiento. Si te das de baja, dejaremos de utilizarlos para enviarte comunicaciones y conservaremos únicamente tu dirección en una lista de exclusión, junto con la fecha de la baja, para garantizar que no vuelves a recibir correos comerciales y para acreditar que hemos atendido tu solicitud.",
          "Si durante dos años no abres ninguno de nuestros correos ni realizas ninguna compra, dejaremos de enviarte comunicaciones comerciales.",
        ],
      },
      {
        heading: "Más información",
        paragraphs: [
          `Puedes consultar toda la información sobre el tratamiento de tus datos y sobre cómo ejercer tus derechos en nuestra Política de privacidad, o escribirnos a ${supportEmail}.`,
        ],
      },
    ],
  };

  const privacyPage: StaticPage = {
    slug: "privacy-policy",
    title: "Política de privacidad",
    description:
      "Cómo trata Ofertas tus datos personales: qué datos recogemos, para qué, durante cuánto tiempo, con quién los compartimos y cuáles son tus derechos.",
    updated: UPDATED,
    sections: [
      {
        heading: "Responsable del tratamiento",
        paragraphs: [
          `El responsable del tratamiento de tus datos personales es ${COMPANY}, con CIF ${CIF} y domicilio en ${ADDRESS}. Para cualquier cuestión relacionada con la protección de datos puedes escribirnos a ${supportEmail}.`,
          "Tratamos tus datos de conformidad con el Reglamento (UE) 2016/679, General de Protección de Datos (RGPD), y con la Ley Orgánica 3/2018, de Protección de Datos Personales y garantía de los derechos digitales (LOPDGDD).",
        ],
      },
      {
        heading: "Qué datos recogemos",
        paragraphs: ["Según cómo utilices el sitio, tratamos las siguientes categorías de datos:"],
        list: [
          "Datos de contacto: nombre, apellidos, dirección de correo electrónico y, en su caso, número de teléfono.",
          "Datos de compra: ofertas adquiridas, importes, fecha de compra, número de pedido, códigos de los cupones y su estado de canje.",
          "Datos de pago: el pago lo gestiona nuestro proveedor de pagos. No almacenamos los números de tu tarjeta; solo recibimos la confirmación del resultado de la operación y datos mínimos para identificarla, como los últimos dígitos de la tarjeta o un identificador de la transacción.",
          "Datos de navegación: dirección IP, tipo de navegador y dispositivo, páginas visitadas, región seleccionada y preferencias, obtenidos mediante cookies en los términos de nuestra Política de cookies.",
          "Comunicaciones: el contenido de los mensajes que nos envías a atención al cliente.",
        ],
      },
      {
        heading: "Para qué usamos tus datos y con qué base jurídica",
        paragraphs: ["Utilizamos tus datos para las siguientes finalidades:"],
        list: [
          "Gestionar tus compras, cobrar el pedido, emitir y enviarte los cupones y permitir su canje. Base jurídica: la ejecución del contrato de compra (art. 6.1.b RGPD).",
          "Atender tus consultas, reclamaciones y solicitudes de desistimiento o reembolso. Base jurídica: la ejecución del contrato y el cumplimiento de obligaciones legales en materia de consumo (art. 6.1.b y 6.1.c RGPD).",
          "Cumplir nuestras obligaciones contables y fiscales. Base jurídica: obligación legal (art. 6.1.c RGPD).",
          "Enviarte comunicaciones comerciales sobre nuestras ofertas, personalizadas según tu región y tus intereses, si lo has aceptado. Base jurídica: tu consentimiento (art. 6.1.a RGPD y art. 21 LSSI).",
          "Prevenir el fraude en los pagos y garantizar la seguridad del sitio. Base jurídica: nuestro interés legítimo en proteger a los usuarios y a la plataforma (art. 6.1.f RGPD).",
          "Analizar el uso del sitio para mejorarlo mediante cookies analíticas. Base jurídica: tu consentimiento (art. 6.1.a RGPD).",
        ],
      },
      {
        heading: "Cuánto tiempo conservamos tus datos",
        paragraphs: [
          "Conservamos los datos de compra mientras sea necesario para gestionar el pedido y la validez de los cupones y, después, durante los plazos en los que puedan derivarse responsabilidades: seis años para la documentación contable y fiscal, conforme al Código de Comercio, y los plazos de prescripción de las acciones civiles aplicables.",
          "Los datos tratados con tu consentimiento se conservan hasta que lo retires. Los datos de navegación se conservan durante los plazos indicados en la Política de cookies.",
          "Transcurridos estos plazos, los datos se suprimen o se anonimizan de forma irreversible.",
        ],
      },
      {
        heading: "A quién comunicamos tus datos",
        paragraphs: [
          "No vendemos tus datos. Solo los comunicamos a terceros cuando es necesario para prestarte el servicio o cuando la ley nos obliga:",
        ],
        list: [
          "Establecimientos colaboradores: reciben los datos imprescindibles para validar y canjear tu cupón (nombre, código del cupón y opción adquirida) y, en su caso, para gestionar tu reserva.",
          "Proveedores de pagos: procesan el pago de tus pedidos y los reembolsos, y aplican sus propios controles contra el fraude.",
          "Proveedores de alojamiento web, infraestructura y envío de correo electrónico, que tratan los datos por nuestra cuenta como encargados del tratamiento y con las garantías contractuales exigidas por el RGPD.",
          "Administraciones públicas, juzgados y tribunales, cuando exista una obligación legal.",
        ],
      },
      {
        heading: "Transferencias internacionales",
        paragraphs: [
          "Procuramos que tus datos se traten dentro del Espacio Económico Europeo. Si algún proveedor tratara datos fuera de él, solo lo haría con garantías adecuadas: países con una decisión de adecuación de la Comisión Europea, como las entidades adheridas al Marco de Privacidad de Datos UE-EE. UU., o las cláusulas contractuales tipo aprobadas por la Comisión. Puedes solicitarnos información sobre estas garantías.",
        ],
      },
      {
        heading: "Tus derechos",
        paragraphs: ["En cualquier momento puedes ejercer los siguientes derechos sobre tus datos:"],
        list: [
          "Acceso: saber si tratamos tus datos y obtener una copia.",
          "Rectificación: corregir los datos inexactos o incompletos.",
          "Supresión: solicitar que eliminemos tus datos cuando ya no sean necesarios.",
          "Oposición: oponerte a determinados tratamientos, como los basados en nuestro interés legítimo.",
          "Limitación: pedir que conservemos tus datos sin tratarlos mientras se resuelve una reclamación.",
          "Portabilidad: recibir los datos que nos has facilitado en un formato estructurado y de uso común.",
          "Retirar el consentimiento que nos hayas dado, sin que ello afecte a los tratamientos anteriores.",
        ],
      },
      {
        heading: "Cómo ejercer tus derechos",
        paragraphs: [
          `Escríbenos a ${supportEmail} con el asunto «Protección de datos» indicando el derecho que quieres ejercer. Si tenemos dudas razonables sobre tu identidad, podremos pedirte información adicional para confirmarla. Responderemos en el plazo de un mes, prorrogable dos meses más en casos complejos, de lo que te informaríamos.`,
          "Si consideras que no hemos atendido correctamente tu solicitud o que el tratamiento de tus datos no es conforme a la normativa, puedes presentar una reclamación ante la Agencia Española de Protección de Datos (AEPD), en www.aepd.es o en su sede en la calle Jorge Juan 6, 28001 Madrid.",
        ],
      },
      {
        heading: "Seguridad",
        paragraphs: [
          "Aplicamos medidas técnicas y organizativas adecuadas para proteger tus datos frente a accesos no autorizados, pérdida o alteración, como el cifrado de las comunicaciones mediante HTTPS y el acceso restringido a los datos al personal que lo necesita.",
        ],
      },
      {
        heading: "Menores de edad",
        paragraphs: [
          "El sitio está dirigido a personas mayores de edad. No recogemos conscientemente datos de menores de 14 años. Si eres padre, madre o tutor y crees que un menor nos ha facilitado sus datos, escríbenos y los eliminaremos.",
        ],
      },
    ],
  };

  const cookiePage: StaticPage = {
    slug: "cookie-policy",
    title: "Política de cookies",
    description:
      "Qué cookies utiliza Ofertas, para qué sirven, cuánto tiempo se conservan y cómo puedes aceptarlas, rechazarlas o eliminarlas.",
    updated: UPDATED,
    sections: [
      {
        heading: "Qué son las cookies",
        paragraphs: [
          "Las cookies son pequeños archivos de texto que un sitio web guarda en tu navegador cuando lo visitas. Permiten, por ejemplo, recordar los productos de tu carrito, tu región o tus preferencias entre una página y otra, y conocer de forma agregada cómo se utiliza el sitio.",
          `Esta política explica qué cookies utiliza el sitio web de Ofertas, titularidad de ${COMPANY} (CIF ${CIF}), y cómo puedes gestionarlas, de acuerdo con el artículo 22.2 de la Ley 34/2002, de Servicios de la Sociedad de la Información y de Comercio Electrónico (LSSI).`,
        ],
      },
      {
        heading: "Cookies técnicas o necesarias",
        paragraphs: [
          "Son imprescindibles para que el sitio funcione y para prestarte los servicios que solicitas, por lo que no requieren tu consentimiento. Son cookies propias y no se utilizan con fines publicitarios:",
        ],
        list: [
          "__session: mantiene tu sesión de navegación y recuerda la región que has seleccionado y tus preferencias de uso del sitio. Es independiente de la cookie del carrito. Duración: se elimina al cerrar la sesión o, como máximo, a los 30 días.",
          "__cart: guarda las ofertas que has añadido al carrito para que no se pierdan mientras navegas y puedas completar la compra. Duración: hasta 30 días desde la última modificación del carrito.",
          "ofertas_consent: almacena tu elección sobre las cookies (analítica y marketing), con la versión de esta política y la fecha, para no volver a preguntarte en cada visita. Duración: 1 año, o hasta que cambiemos esta política.",
          "PayPal: solo en la página de pago y solo si pagas con PayPal, su botón de pago carga un script de PayPal, que puede usar sus propias cookies para prevenir el fraude.",
          "Cloudflare Turnstile: solo en los formularios de acceso, registro y alta de empresas, una comprobación antispam de Cloudflare que no usa cookies para publicidad.",
        ],
      },
      {
        heading: "Cookies analíticas",
        paragraphs: [
          "Nos permiten medir de forma agregada el número de visitas, las páginas más consultadas y cómo se navega por el sitio, para mejorar su funcionamiento y nuestras ofertas. No las utilizamos para mostrarte publicidad ni para identificarte personalmente.",
          "Solo se instalan si las aceptas expresamente. Si las rechazas o no haces ninguna elección, no se instalará ninguna cookie analítica y el sitio seguirá funcionando con normalidad.",
          "Usamos Amplitude, con sus servidores en la Unión Europea: guarda un identificador aleatorio en el almacenamiento local de tu navegador (claves AMP_…) durante un máximo de 1 año, y graba de forma anónima una muestra de sesiones con todo lo que escribes oculto; nunca graba el pago ni tu cuenta. Cuando pagas, nuestro servidor le comunica el importe de la compra, nunca tu correo ni tus cupones.",
        ],
      },
      {
        heading: "Cookies de marketing y contenido de terceros",
        paragraphs: [
          "Solo si las aceptas, cargamos Google Tag Manager y las herramientas de medición y publicidad que gestiona (cookies _ga, _gid, _gcl_…, de hasta 2 años), y el mapa interactivo de cada oferta, que descarga sus imágenes de un proveedor de mapas. Sin ellas verás la dirección, una imagen del mapa servida por nosotros y el enlace «Cómo llegar».",
        ],
      },
      {
        heading: "Cómo aceptar o rechazar las cookies",
        paragraphs: [
          "La primera vez que visitas el sitio te mostramos un aviso de cookies con dos botones iguales, «Aceptar todo» y «Rechazar todo», y «Configurar», que te deja elegir por categorías (Necesarias, Analítica y Marketing). Tu elección se guarda en la cookie ofertas_consent durante un año; pasado ese plazo, o si cambiamos esta política, te volveremos a preguntar.",
          "Puedes cambiar de opinión cuando quieras con el enlace «Configurar cookies» al pie de todas las páginas. Si retiras tu consentimiento a una categoría, dejamos de usar sus herramientas en ese momento y borramos las cookies y los datos que hayan guardado en tu navegador.",
        ],
      },
      {
        heading: "Cómo eliminar las cookies desde tu navegador",
        paragraphs: [
          "Además, puedes ver, bloquear o eliminar las cookies en la configuración de tu navegador. Ten en cuenta que, si bloqueas las cookies técnicas, es posible que no puedas usar el carrito ni completar compras. Las opciones se encuentran habitualmente en los siguientes menús:",
        ],
        list: [
          "Google Chrome: Configuración > Privacidad y seguridad > Cookies de terceros o Datos de sitios.",
          "Mozilla Firefox: Ajustes > Privacidad & Seguridad > Cookies y datos del sitio.",
          "Safari: Ajustes > Privacidad > Gestionar datos de sitios web (en iPhone y iPad: Ajustes > Safari > Avanzado).",
          "Microsoft Edge: Configuración > Cookies y permisos del sitio > Administrar y eliminar cookies y datos del sitio.",
        ],
      },
      {
        heading: "Actualizaciones y contacto",
        paragraphs: [
          `Podemos modificar esta política si cambian las cookies que utilizamos o la normativa aplicable; la fecha de la última actualización figura en esta página. Si tienes cualquier duda, escríbenos a ${supportEmail}. Para más información sobre el tratamiento de tus datos, consulta nuestra Política de privacidad.`,
        ],
      },
    ],
  };

  return {
    contacts: contactsPage,
    agreement: agreementPage,
    "marketing-agreement": marketingPage,
    "privacy-policy": privacyPage,
    "cookie-policy": cookiePage,
  };
}
