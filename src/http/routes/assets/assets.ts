// /assets: browser code bundled on request, styles and icons (src/http/assets.ts, which the
// replay viewer's own server registers too).
export { default } from '../../assets.ts';
