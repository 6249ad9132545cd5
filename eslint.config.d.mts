// Types of eslint.config.mjs for eslint.config.test.ts.
export type Floor = {
  name: string;
  paths: string[];
  holds: string;
  mayImport: string[];
  typeOnly?: string[];
  noPackages?: string[];
};
export declare const FLOORS: Floor[];
declare const config: unknown[];
export default config;
