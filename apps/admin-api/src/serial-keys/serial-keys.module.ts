import { Module } from '@nestjs/common';
import { SerialKeysController } from './serial-keys.controller';
import { SerialKeysRepository } from './serial-keys.repository';
import { SerialKeysService } from './serial-keys.service';

@Module({ controllers: [SerialKeysController], providers: [SerialKeysService, SerialKeysRepository] })
export class SerialKeysModule {}
