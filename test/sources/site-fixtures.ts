/**
 * Company web pages as sites serve them: each vendor's snippet as its install documentation
 * gives it (Google tag, Tag Manager container, Segment's analytics.js, HubSpot's tracking code,
 * Intercom's Messenger, Stripe.js, LinkedIn Insight Tag, Meta Pixel, Hotjar), only the ids made up.
 */

export const snippets = {
  googleTag: `<script async src="https://www.googletagmanager.com/gtag/js?id=G-8XK2TQ1Z7B"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-8XK2TQ1Z7B');</script>`,
  tagManager: `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-W7K3P9Q');</script>`,
  segment: `<script>!function(){var analytics=window.analytics=window.analytics||[];analytics.load=function(key,e){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.src="https://cdn.segment.com/analytics.js/v1/" + key + "/analytics.min.js";var n=document.getElementsByTagName("script")[0];n.parentNode.insertBefore(t,n)};analytics.SNIPPET_VERSION="4.15.3";analytics.load("Zk3v9Qx1");analytics.page();}();</script>`,
  hubspot: `<script type="text/javascript" id="hs-script-loader" async defer src="//js.hs-scripts.com/4417263.js"></script>`,
  intercom: `<script>window.intercomSettings = { api_base: "https://api-iam.intercom.io", app_id: "q8v1x2ab" };</script>
<script>(function(){var w=window;var ic=w.Intercom;var d=document;var l=function(){var s=d.createElement('script');s.type='text/javascript';s.async=true;s.src='https://widget.intercom.io/widget/q8v1x2ab';var x=d.getElementsByTagName('script')[0];x.parentNode.insertBefore(s,x);};l();})();</script>`,
  stripe: `<script src="https://js.stripe.com/v3/"></script>`,
  linkedIn: `<script type="text/javascript">_linkedin_partner_id = "5521834"; window._linkedin_data_partner_ids = window._linkedin_data_partner_ids || []; window._linkedin_data_partner_ids.push(_linkedin_partner_id);</script>
<script type="text/javascript">(function(l) { var s = document.getElementsByTagName("script")[0]; var b = document.createElement("script"); b.type = "text/javascript";b.async = true; b.src = "https://snap.licdn.com/li.lms-analytics/insight.min.js"; s.parentNode.insertBefore(b, s);})(window.lintrk);</script>`,
  metaPixel: `<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window, document,'script','https://connect.facebook.net/en_US/fbevents.js'); fbq('init', '771203948812'); fbq('track', 'PageView');</script>`,
  hotjar: `<script>(function(h,o,t,j,a,r){h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};h._hjSettings={hjid:3318841,hjsv:6};a=o.getElementsByTagName('head')[0];r=o.createElement('script');r.async=1;r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;a.appendChild(r);})(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>`,
  nextJs: `<script src="/_next/static/chunks/main-3f2a1c.js" defer></script><script id="__NEXT_DATA__" type="application/json">{"props":{},"page":"/"}</script>`,
  wordpress: `<meta name="generator" content="WordPress 6.6.2" /><link rel="stylesheet" href="/wp-content/themes/acme/style.css" />`,
  greenhouseEmbed: (token: string) =>
    `<div id="grnhse_app"></div><script src="https://boards.greenhouse.io/embed/job_board/js?for=${token}"></script>`,
};

/** A homepage with a head of metadata and snippets and a body of links. */
export function homepage(options: {
  title: string;
  description?: string;
  ogDescription?: string;
  head?: string[];
  links?: { href: string; text: string }[];
  feeds?: { href: string; type: string; title: string }[];
}): string {
  const meta = [
    options.description ? `<meta name="description" content="${options.description}">` : '',
    options.ogDescription ? `<meta property="og:description" content="${options.ogDescription}">` : '',
  ].join('\n    ');
  const feeds = (options.feeds ?? [])
    .map((feed) => `<link rel="alternate" type="${feed.type}" title="${feed.title}" href="${feed.href}">`)
    .join('\n    ');
  const links = (options.links ?? [])
    .map((link) => `<li><a href="${link.href}">${link.text}</a></li>`)
    .join('\n      ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${options.title}</title>
    ${meta}
    ${feeds}
    ${(options.head ?? []).join('\n    ')}
  </head>
  <body>
    <nav><ul>
      ${links}
    </ul></nav>
    <main><h1>${options.title}</h1><p>Built for teams who ship.</p></main>
  </body>
</html>`;
}
