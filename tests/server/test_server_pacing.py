"""Issue #13: while the event loop runs late, table creation and joining wait at the door
(:mod:`parlour.server.pacing`), so the tables in play come first; nothing is refused."""

from __future__ import annotations

import asyncio
import time

from server_kit import create, run_async, service

from parlour.server.pacing import Pacer


def test_nobody_waits_while_the_loop_is_on_time():
    async def main():
        p = Pacer(lag_ms=20, max_wait=5)
        return await p.admit(), p.held

    assert run_async(main()) == (0.0, 0)


def test_a_newcomer_waits_until_the_loop_catches_up():
    async def main():
        p = Pacer(lag_ms=20, max_wait=30, every=0.005)
        p.late = 0.5  # behind

        async def catch_up():
            await asyncio.sleep(0.05)
            p.late = 0.0

        asyncio.get_running_loop().create_task(catch_up())
        waited = await asyncio.wait_for(p.admit(), timeout=10)  # long before max_wait
        return waited, p.held

    waited, held = run_async(main())
    assert waited >= 0.05 and held == 1


def test_a_newcomer_goes_on_after_the_longest_wait_even_if_the_loop_is_still_late():
    async def main():
        p = Pacer(lag_ms=20, max_wait=0.05, every=0.005)
        p.late = 0.5
        return await p.admit()

    assert run_async(main()) >= 0.05


def test_newcomers_behind_a_waiting_one_wait_too_and_go_in_one_at_a_time():
    async def main():
        p = Pacer(lag_ms=20, max_wait=30, every=0.005)
        p.late = 0.5
        order: list[int] = []

        async def newcomer(i: int) -> None:
            await p.admit()
            order.append(i)

        loop = asyncio.get_running_loop()
        first = loop.create_task(newcomer(1))
        await asyncio.sleep(0.02)
        second = loop.create_task(newcomer(2))
        await asyncio.sleep(0.02)
        assert order == []  # both at the door
        p.late = 0.0
        await asyncio.wait_for(asyncio.gather(first, second), timeout=10)
        return order, p.held

    order, held = run_async(main())
    assert order == [1, 2] and held == 2


def test_the_door_is_open_when_the_setting_is_zero():
    async def main():
        p = Pacer(lag_ms=0, max_wait=5)
        p.late = 10.0
        await asyncio.wait_for(p.run(), timeout=1)  # returns at once: nothing to watch
        return p.behind, await p.admit()

    assert run_async(main()) == (False, 0.0)


def test_the_pacer_notices_a_loop_that_was_held_up():
    async def main():
        p = Pacer(lag_ms=20, max_wait=5, every=0.005)
        task = asyncio.get_running_loop().create_task(p.run())
        await asyncio.sleep(0.02)
        time.sleep(0.1)  # the loop held up (as by a long turn of other tables' work)
        await asyncio.sleep(0.006)
        seen = p.late
        task.cancel()
        return seen

    assert run_async(main()) >= 0.05


def test_creating_and_joining_pass_the_door(make_app):
    client = make_app(arrival_lag_ms=15, arrival_max_wait=2)
    svc = service(client)
    assert (svc.pacer.limit, svc.pacer.max_wait) == (0.015, 2)
    asked = []
    real = svc.pacer.admit

    async def admit():
        asked.append(1)
        return await real()

    svc.pacer.admit = admit
    j = create(client, "fanti", 2, ["person", "person"])
    assert len(asked) == 1
    invite = j["invite_url"].split("#invite=")[1]
    r = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Bea"})
    assert r.status_code == 200, r.text
    assert len(asked) == 2
