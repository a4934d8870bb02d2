import { Controller, Get, Post, RequestMethod } from '@nestjs/common';
import { controllerRoutes } from './controller-routes';

@Controller()
class RootController {
  @Post()
  run(): void {}

  @Post('invocations')
  invoke(): void {}

  /** Not a route: no path metadata. */
  helper(): void {}
}

@Controller('/extensions/v1/')
class PrefixedController {
  @Get(['a', 'b/:id'])
  read(): void {}

  @Post('a')
  write(): void {}
}

describe('controllerRoutes', () => {
  it.each([
    { name: 'a root controller', controller: RootController, paths: ['/', '/invocations'] },
    {
      name: 'a prefixed controller with several paths per handler, each path once',
      controller: PrefixedController,
      paths: ['/extensions/v1/a', '/extensions/v1/b/:id'],
    },
  ])('lists every path of $name, for any method', ({ controller, paths }) => {
    expect(controllerRoutes(controller)).toEqual(paths.map((path) => ({ path, method: RequestMethod.ALL })));
  });
});
