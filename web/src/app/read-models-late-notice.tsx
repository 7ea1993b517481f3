import { useEffect } from 'react';
import { useToast } from '../components/ui/toast';
import { READ_MODELS_LATE_MESSAGE, subscribeReadModelsLate } from '../lib/read-models-late';

/**
 * A command answered 202 (recorded, read models late): says so in a toast,
 * whichever screen sent it. The refresh itself comes with the live update of
 * the changed stream (app/live-invalidators.ts).
 */
export function ReadModelsLateNotice() {
  const toast = useToast();
  useEffect(() => subscribeReadModelsLate(() => toast.show(READ_MODELS_LATE_MESSAGE, { tone: 'info' })), [toast]);
  return null;
}
