/**
 * "Share location" on the driver page (decisions.md, "The live day"): opt-in, remembered per link
 * on this phone, and only while the page is open. The browser's Geolocation watches the phone;
 * at most one position per SHARE_EVERY_MS goes to the service, which shows it to the dispatcher
 * and re-times the rest of the route from it.
 */
import { h } from './dom.js';
import { shareKey, shouldSend } from './share-throttle.js';

export interface SharedPosition {
  lat: number;
  lng: number;
  at: string;
  accuracy_m?: number;
}

export class LocationShare {
  private watch: number | null = null;
  private lastSentMs: number | null = null;
  private note = '';

  constructor(
    private readonly token: string,
    /** Sends one position (the page then shows the route's new times). */
    private readonly send: (position: SharedPosition) => Promise<void>,
    /** The control changed: the page shows it again. */
    private readonly changed: () => void,
  ) {}

  /** Resumes sharing when the driver left it on for this link. */
  start(): void {
    if (localStorage.getItem(shareKey(this.token)) !== 'on') return;
    this.watchPhone();
    this.changed();
  }

  /** Stops watching the phone (the link no longer opens) without forgetting the driver's choice. */
  pause(): void {
    if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
    this.watch = null;
  }

  get sharing(): boolean {
    return this.watch !== null;
  }

  /** The control and what it shares with whom, for the top of the route. */
  view(): HTMLElement {
    if (!('geolocation' in navigator)) return h('p', { class: 'share-note' }, 'This browser cannot share its location.');
    const toggle = h(
      'button',
      // The label says what a tap does; the paragraph below says what is shared, with whom.
      { type: 'button', class: `button share-button${this.sharing ? ' sharing' : ''}`, 'aria-describedby': 'share-help' },
      this.sharing ? 'Stop sharing' : 'Share location',
    );
    toggle.addEventListener('click', () => (this.sharing ? this.stop() : this.begin()));
    const help = this.sharing
      ? 'Your dispatcher sees where you are (at most every 30 s) while this page is open; your next arrival times follow.'
      : 'Lets your dispatcher see where you are while this page is open, to update your arrival times. Nothing is shared with customers.';
    return h('div', { class: 'share' }, toggle, h('p', { class: 'share-note', id: 'share-help' }, this.note || help));
  }

  private begin(): void {
    localStorage.setItem(shareKey(this.token), 'on');
    this.note = '';
    this.watchPhone();
    this.changed();
  }

  private stop(note = ''): void {
    this.pause();
    this.note = note;
    localStorage.removeItem(shareKey(this.token));
    this.changed();
  }

  private watchPhone(): void {
    this.watch = navigator.geolocation.watchPosition(
      (position) => void this.take(position),
      (error) => {
        // Refused for good: say why and stop asking; a position not found now may come later.
        if (error.code === error.PERMISSION_DENIED)
          this.stop('Location is blocked for this page in your browser settings; sharing is off.');
      },
      { enableHighAccuracy: true, maximumAge: 15_000 },
    );
  }

  private async take(position: GeolocationPosition): Promise<void> {
    const now = Date.now();
    if (!shouldSend(this.lastSentMs, now)) return;
    this.lastSentMs = now;
    const { latitude, longitude, accuracy } = position.coords;
    // The service takes accuracies up to 100 km; a worse one still says roughly where the driver is.
    const accuracyM = Number.isFinite(accuracy) ? Math.min(Math.round(accuracy), 100_000) : undefined;
    await this.send({
      lat: latitude,
      lng: longitude,
      at: new Date(position.timestamp).toISOString(),
      ...(accuracyM !== undefined ? { accuracy_m: accuracyM } : {}),
    });
  }
}
