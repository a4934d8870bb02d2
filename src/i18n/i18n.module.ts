import { Module } from '@nestjs/common';
import { MessageCatalogue } from './message-catalogue';

@Module({ providers: [MessageCatalogue], exports: [MessageCatalogue] })
export class I18nModule {}
