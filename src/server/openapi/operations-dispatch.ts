/**
 * The document's operations of a dispatched day: the dispatcher's (routes/dispatch.ts,
 * proof-files.ts), a driver's link (routes/drivers.ts) and a customer's tracking link (routes/track.ts).
 */
import { LINK_ERRORS, error, type Answer, type Operation } from './operation.js';

const DISPATCH: Answer = { description: 'the dispatch', json: 'DispatchView' };
const NOT_DISPATCHED = error('`not_found` (the project, or a driver not in its dispatch) or `not_dispatched`');
const PROOF_TYPES = ['image/jpeg', 'image/png', 'image/webp'].join(', ');

export const DISPATCH_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1.0/project/{id}/dispatch',
    tag: 'dispatch',
    summary: 'Freeze a finished plan (default: the latest) as the day’s routes, with a link per driver and per customer',
    access: 'api',
    body: 'DispatchRequest',
    optionalBody: true,
    answers: {
      201: { ...DISPATCH, description: 'dispatched', headers: ['Location'] },
      200: { ...DISPATCH, description: 'dispatched again (`redispatch: true`)', headers: ['Location'] },
      400: error('`invalid_request`: a field of the body, with its path'),
      404: error('`not_found`: no such project, or no such optimization of it'),
      409: error('`already_dispatched` (unless `redispatch`), `no_plan`, `plan_outdated`'),
    },
  },
  {
    method: 'get',
    path: '/v1.0/project/{id}/dispatch',
    tag: 'dispatch',
    summary: 'The dispatch: its stops’ progress and the drivers’ links',
    access: 'api',
    answers: { 200: DISPATCH, 404: NOT_DISPATCHED },
  },
  {
    method: 'get',
    path: '/v1.0/project/{id}/dispatch/solution',
    tag: 'dispatch',
    summary: 'The plan as dispatched',
    access: 'api',
    answers: { 200: { description: 'the frozen plan', json: 'Plan' }, 404: NOT_DISPATCHED },
  },
  ...(['revoke', 'link'] as const).map((action): Operation => ({
    method: 'post',
    path: `/v1.0/project/{id}/dispatch/drivers/{driverId}/${action}`,
    tag: 'dispatch',
    summary: action === 'revoke' ? 'Withdraw a driver’s link' : 'Give a driver a new link (the old one stops opening)',
    access: 'api',
    answers: { 200: DISPATCH, 404: NOT_DISPATCHED },
  })),
  ...(['photo', 'signature'] as const).flatMap((kind): Operation[] => [
    {
      method: 'get',
      path: `/v1.0/project/{id}/dispatch/stops/{stopId}/${kind}`,
      tag: 'dispatch',
      summary: `A done stop’s proof of delivery: its ${kind}, for the project’s owner`,
      access: 'api',
      answers: {
        200: { description: `the ${kind} (${PROOF_TYPES}), private`, raw: 'image/*' },
        404: error(`\`not_found\`: no such project or stop, or no ${kind}`),
      },
    },
    {
      method: 'get',
      path: `/drivers/{token}/stops/{stopId}/${kind}`,
      tag: 'drivers',
      summary: `The ${kind} of one of the link’s own stops`,
      access: 'link',
      answers: {
        200: { description: `the ${kind} (${PROOF_TYPES})`, raw: 'image/*' },
        ...LINK_ERRORS,
        404: error(`\`link_not_found\`, or no ${kind}`),
      },
    },
  ]),
  {
    method: 'get',
    path: '/drivers/{token}/route',
    tag: 'drivers',
    summary: 'The link’s driver’s own route, and the basemap of the page’s map',
    access: 'link',
    answers: { 200: { description: 'the route', json: 'DriverRouteView' }, ...LINK_ERRORS },
  },
  {
    method: 'post',
    path: '/drivers/{token}/stops/{stopId}',
    tag: 'drivers',
    summary: 'Report a stop done (with proof of delivery), failed (with a reason) or planned again',
    access: 'link',
    body: 'StopStatusUpdate',
    answers: {
      200: { description: 'the stop as stored', json: 'DriverStopView' },
      400: error('`invalid_status` (with the path), `proof_required`, `invalid_proof`'),
      ...LINK_ERRORS,
      404: error('`link_not_found`, or `stop_not_found`: the stop is on another route'),
      413: error('`proof_too_large` (a photo over 2.5 MB, a signature over 200 kB) or `payload_too_large`'),
      415: error('`unsupported_image` (not JPEG, PNG or WebP by its bytes) or `unsupported_media_type`'),
    },
  },
  {
    method: 'post',
    path: '/drivers/{token}/position',
    tag: 'drivers',
    summary: 'Share the device’s position; the newest is kept',
    access: 'link',
    body: 'PositionReport',
    answers: {
      200: { description: 'the position as kept (`kept: false` when an older one arrived late)', json: 'SharedPosition' },
      400: error('`invalid_position`, each problem with its path'),
      ...LINK_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/track/{token}/status',
    tag: 'tracking',
    summary: 'A customer’s stop: its status, promised window and estimate, nothing of anyone else’s',
    access: 'link',
    answers: { 200: { description: 'the stop’s status', json: 'TrackingView' }, ...LINK_ERRORS },
  },
];
