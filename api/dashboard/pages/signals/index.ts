import type Router from '@koa/router';
import type { Services } from '../../../../src/services';
import type { DashboardState } from '../../web';
import { FORM_TYPES, createSignal, newSignalPage, previewNewSignal } from './new-signal';
import { signalListPage } from './list';
import { signalPage } from './detail';
import { editSignalPage, previewEditedSignal, saveSignal } from './edit';
import {
  deleteSignal,
  pauseSignal,
  replayLeads,
  resumeSignal,
  saveCrmExclusions,
  saveDestinations,
  sendTestWebhook,
  signalAction,
} from './actions';

/** The signal pages, one handler each; `/signals/new/…` comes before `/signals/:signalId` so it wins the match. */
export function signalRoutes(router: Router<DashboardState>, services: Services): void {
  router.get('/signals', signalListPage(services));
  for (const type of FORM_TYPES) {
    router.get(`/signals/new/${type.createPath}`, newSignalPage(services, type));
    router.post(`/signals/new/${type.createPath}`, createSignal(services, type));
    router.post(`/signals/new/${type.createPath}/preview`, previewNewSignal(services, type));
  }
  router.get('/signals/:signalId', signalPage(services));
  router.get('/signals/:signalId/edit', editSignalPage(services));
  router.post('/signals/:signalId/edit', saveSignal(services));
  router.post('/signals/:signalId/edit/preview', previewEditedSignal(services));
  router.post('/signals/:signalId/destinations', signalAction(services, saveDestinations(services)));
  router.post('/signals/:signalId/crm-exclusions', signalAction(services, saveCrmExclusions(services)));
  router.post('/signals/:signalId/pause', signalAction(services, pauseSignal(services)));
  router.post('/signals/:signalId/resume', signalAction(services, resumeSignal(services)));
  router.post('/signals/:signalId/test-webhook', signalAction(services, sendTestWebhook(services)));
  router.post('/signals/:signalId/replay', signalAction(services, replayLeads(services)));
  router.post('/signals/:signalId/delete', deleteSignal(services));
}
