/**
 * A stop's proof of delivery on the project page's dispatch card: the photo as a thumbnail that
 * opens full size, the signature, the recipient's name. The files answer only to the signed-in
 * owner (the session's cookie goes with the image requests), never to other visitors.
 */
import { h } from './dom.js';
import type { StopProof } from './types.js';

export function proofCell(proof: StopProof | undefined, stopName: string): HTMLElement | string {
  if (!proof) return '';
  return h(
    'div',
    { class: 'proof-cell' },
    proof.photo_url
      ? h(
          'a',
          { href: proof.photo_url, target: '_blank', rel: 'noopener', class: 'proof-photo' },
          h('img', {
            src: proof.photo_url,
            alt: `Photo of the delivery at ${stopName} (opens full size)`,
            loading: 'lazy',
            width: 96,
            height: 72,
          }),
        )
      : null,
    proof.signature_url
      ? h('img', {
          src: proof.signature_url,
          alt: `Signature for ${stopName}`,
          class: 'proof-signature',
          loading: 'lazy',
          width: 120,
          height: 40,
        })
      : null,
    proof.recipient ? h('span', { class: 'proof-recipient' }, `Received by ${proof.recipient}`) : null,
  );
}
