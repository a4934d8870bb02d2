import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { playgroundPageConfigProvider } from './playground-page-config.provider';
import { defaultPlaygroundPageDir, PLAYGROUND_PAGE_DIR } from './playground-page-dir';
import { PlaygroundController } from './playground.controller';

/** The browser playground : static files built by Vite, served by the service itself. */
@Module({
  imports: [CommonModule],
  controllers: [PlaygroundController],
  providers: [
    { provide: PLAYGROUND_PAGE_DIR, useFactory: defaultPlaygroundPageDir },
    playgroundPageConfigProvider,
  ],
})
export class PlaygroundModule {}
