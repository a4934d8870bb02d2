import { Module } from '@nestjs/common';
import { I18nModule } from '../i18n/i18n.module';
import { ActivityTracker } from './activity-tracker';
import { CLOCK, SystemClock } from './clock';
import { JsonEnvelopeFilter } from './filters/json-envelope.filter';
import { SseRunErrorFilter } from './filters/sse-run-error.filter';
import { ServiceLifecycle } from './service-lifecycle';

/** Cross-cutting providers: the clock and the two error renderers (bound per controller, never globally). */
@Module({
  imports: [I18nModule],
  providers: [
    { provide: CLOCK, useClass: SystemClock },
    JsonEnvelopeFilter,
    SseRunErrorFilter,
    ServiceLifecycle,
    ActivityTracker,
  ],
  exports: [ActivityTracker, CLOCK, JsonEnvelopeFilter, SseRunErrorFilter, ServiceLifecycle, I18nModule],
})
export class CommonModule {}
