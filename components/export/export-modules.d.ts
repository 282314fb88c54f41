/** ELK's worker script, gzipped and base64-encoded, made by the export bundle's build (lib/export/viewer-bundle.ts). */
declare module "loopscope-export:elk-worker" {
  const gzipBase64: string;
  export default gzipBase64;
}
