/** The SHA-256 of the build's inputs under `root` (tools/build-inputs.js). */
export function buildInputsHash(root: string): string;
