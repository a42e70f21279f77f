import { Module } from '@nestjs/common';
import { UtterancesController } from './utterances.controller';
import { UtterancesRepository } from './utterances.repository';
import { UtterancesService } from './utterances.service';

@Module({ controllers: [UtterancesController], providers: [UtterancesService, UtterancesRepository] })
export class UtterancesModule {}
