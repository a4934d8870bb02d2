import { Controller, Get, Inject, NotFoundException, Param, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PLAYGROUND_PAGE_CONFIG } from './playground-page-config.provider';
import type { PlaygroundPageConfig } from './playground-page-config';
import { PLAYGROUND_PAGE_DIR } from './playground-page-dir';

/**
 * The page allows only its own origin: a second guarantee, after the build, that it makes no external
 * request (no CDN, no web fonts). `data:` images cover the empty favicon. No 'unsafe-eval':
 * zod (inside @ag-ui/client) probes `Function('')` once, catches the refusal and validates without it,
 * which leaves one harmless CSP note in the browser console.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /playground` and its files, open without authentication (the page's own API calls carry the
 * token). When `IAC_CODE_AGUI_PLAYGROUND` is off, every route answers the same 404 as a route that does
 * not exist, so a production service does not reveal that it could serve one.
 */
@Controller('playground')
@UseFilters(JsonEnvelopeFilter)
export class PlaygroundController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PLAYGROUND_PAGE_DIR) private readonly pageDir: string,
    @Inject(PLAYGROUND_PAGE_CONFIG) private readonly pageConfig: PlaygroundPageConfig,
  ) {}

  @Get()
  async page(@Res() res: Response): Promise<void> {
    this.assertEnabled();
    res.setHeader('Cache-Control', 'no-cache');
    await this.sendFile(res, 'index.html');
  }

  @Get('config.json')
  settings(): PlaygroundPageConfig {
    this.assertEnabled();
    return this.pageConfig;
  }

  @Get('assets/:file')
  async asset(@Param('file') file: string, @Res() res: Response): Promise<void> {
    this.assertEnabled();
    // Vite names assets by content hash: a name never changes meaning, so it may be cached for good.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    await this.sendFile(res, `assets/${file}`);
  }

  private assertEnabled(): void {
    // The same NOT_FOUND envelope as an unknown route (the filter renders Nest's 404 that way).
    if (!this.config.playground) throw new NotFoundException();
  }

  /** express's sendFile with `root`: a name cannot climb out of the page folder; a missing file is a 404. */
  private sendFile(res: Response, relativePath: string): Promise<void> {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    return new Promise((resolve, reject) => {
      res.sendFile(relativePath, { root: this.pageDir, dotfiles: 'deny' }, (error?: Error) =>
        error ? reject(new NotFoundException()) : resolve(),
      );
    });
  }
}
