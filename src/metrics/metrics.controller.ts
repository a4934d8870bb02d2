import { Controller, Get, Header, UseFilters, UseGuards } from '@nestjs/common';
import { Registry } from 'prom-client';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { MetricsAccessGuard } from './metrics-access.guard';
import { RunMetrics } from './run-metrics';

/** `GET /metrics`: the Prometheus text format; a refused scrape gets the iac-code JSON envelope (401). */
@Controller()
@UseGuards(MetricsAccessGuard)
@UseFilters(JsonEnvelopeFilter)
export class MetricsController {
  constructor(private readonly metrics: RunMetrics) {}

  @Get('metrics')
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.exposition();
  }
}
