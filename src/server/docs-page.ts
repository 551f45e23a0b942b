import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** The version the spec's interface description carries (spec: Versioning). */
export const SPEC_VERSION = '1.0.0';
export const API_TITLE = 'gen-platform: Model Platform HTTP API';

const BRAND = '#1f4e8c';

const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40" viewBox="0 0 300 40">
  <rect x="1" y="4" width="32" height="32" rx="7" fill="#ffffff"/>
  <text x="17" y="27" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="18" font-weight="700" fill="${BRAND}">g</text>
  <text x="42" y="21" font-family="Helvetica, Arial, sans-serif" font-size="19" font-weight="700" fill="#ffffff">gen-platform</text>
  <text x="42" y="36" font-family="Helvetica, Arial, sans-serif" font-size="11" fill="#dbe6f5">Model Platform HTTP API · spec ${SPEC_VERSION}</text>
</svg>`;

const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="7" fill="${BRAND}"/>
  <text x="16" y="23" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="20" font-weight="700" fill="#ffffff">g</text>
</svg>`;

// The top bar in the platform's colour; the URL box of the explorer only confuses here (one document).
const css = `.swagger-ui .topbar { background-color: ${BRAND}; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar a { max-width: 320px; }`;

/** `/docs`: the reference page, in the platform's name rather than the web framework's. */
export const DOCS_PAGE: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  logo: { type: 'image/svg+xml', content: logoSvg, href: '/docs' },
  theme: {
    title: `gen-platform API reference (spec ${SPEC_VERSION})`,
    favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: faviconSvg }],
    css: [{ filename: 'gen-platform.css', content: css }],
  },
};
