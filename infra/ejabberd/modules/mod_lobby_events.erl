%%% Tells the Lobby server when a guest joins or leaves one of its rooms and when a guest's session opens
%%% or ends (docs/operations.md "Calls whose guest vanished", "Guest rooms nobody can use any more").
%%%
%%% The server used to ask for the occupants of every open call's room every 3 s: at 5,000 waiting guests
%%% that was over a core of idle CPU, and a vanished guest was noticed later the longer the queue. Now it
%%% learns of a guest leaving from these events and asks about that one room only; a slow full sweep
%%% (one `lobby_room_guests` call, below) catches what an event could not tell it (no server was
%%% answering when ejabberd posted).
%%%
%%% Events are batched: each host's process posts what happened in the last half second as one JSON
%%% body, `{"events":[{"type":"join"|"leave","room":R,"user":U} | {"type":"online"|"offline","user":U}]}`,
%%% with `Authorization: Bearer <secret>`, without holding up a room's process or a session (the hooks
%%% only cast to this process). One post is in flight at a time, so batches arrive in the order they
%%% happened.
%%%
%%% Where: `urls`, the loopback URL of every Lobby server instance (docs/operations.md "Scaling"; `url`,
%%% one URL, still works). A batch goes to the instance that took the last one; when that post fails
%%% (refused, no answer within 5 s, a 5xx: the instance is down, hung or draining) the same batch goes to
%%% the next URL, and the one after, until one takes it, so the events reach whichever instance is alive.
%%% Only when none takes it is it dropped: the server's backstop sweep is the answer to a lost event. A
%%% batch delivered twice (an instance that took it but answered too late) is harmless: an event only
%%% tells the server where to look, and each is confirmed with ejabberd (apps/server/src/routes/api/ejabberd-events.ts).
%%% The list is read at each post, so `ejabberdctl reload_config` applies a new one.
-module(mod_lobby_events).
-behaviour(gen_mod).
-behaviour(gen_server).

-export([start/2, stop/1, reload/3, depends/2, mod_options/1, mod_opt_type/1, mod_doc/0]).
-export([join_room/4, leave_room/4, session_opened/3, session_closed/3, room_guests/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2, code_change/3]).

-include("ejabberd_commands.hrl").

-define(FLUSH_MS, 500).
%% events kept while the server does not answer; beyond, new ones are dropped (the backstop sweep catches up)
-define(MAX_BUFFERED, 20000).
-define(MAX_PER_POST, 2000).

start(Host, Opts) ->
    ejabberd_commands:register_commands(?MODULE, commands()),
    ejabberd_hooks:add(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:add(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:add(sm_register_connection_hook, Host, ?MODULE, session_opened, 50),
    ejabberd_hooks:add(sm_remove_connection_hook, Host, ?MODULE, session_closed, 50),
    gen_mod:start_child(?MODULE, Host, Opts).

stop(Host) ->
    ejabberd_hooks:delete(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:delete(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:delete(sm_register_connection_hook, Host, ?MODULE, session_opened, 50),
    ejabberd_hooks:delete(sm_remove_connection_hook, Host, ?MODULE, session_closed, 50),
    gen_mod:stop_child(?MODULE, Host).

reload(_Host, _NewOpts, _OldOpts) -> ok.
depends(_Host, _Opts) -> [].

mod_opt_type(guest_host) -> econf:binary();
mod_opt_type(muc_host) -> econf:binary();
mod_opt_type(url) -> econf:binary();
mod_opt_type(urls) -> econf:list(econf:binary());
mod_opt_type(secret) -> econf:binary().

mod_options(_Host) -> [{guest_host, <<>>}, {muc_host, <<>>}, {url, <<>>}, {urls, []}, {secret, <<>>}].

mod_doc() -> #{desc => ["Posts guests' room and session events to the Lobby server."]}.

%% ------------------------------------------------------------------------------------------------ hooks

%% A room's occupant came or went (run by the room's process, on the MUC's server host).
join_room(ServerHost, Room, MucHost, JID) -> room_event(<<"join">>, ServerHost, Room, MucHost, JID).
leave_room(ServerHost, Room, MucHost, JID) -> room_event(<<"leave">>, ServerHost, Room, MucHost, JID).

room_event(Type, ServerHost, Room, MucHost, JID) ->
    {User, UserHost, _} = jid:tolower(JID),
    case MucHost == opt(ServerHost, muc_host) andalso UserHost == opt(ServerHost, guest_host) of
        true -> queue(ServerHost, [{type, Type}, {room, Room}, {user, User}]);
        false -> ok
    end.

%% A guest's session opened or ended (run on the guests' host).
session_opened(_SID, JID, _Info) -> session_event(<<"online">>, JID).
session_closed(_SID, JID, _Info) -> session_event(<<"offline">>, JID).

session_event(Type, JID) ->
    {User, Host, _} = jid:tolower(JID),
    case Host == opt(Host, guest_host) of
        true -> queue(Host, [{type, Type}, {user, User}]);
        false -> ok
    end.

opt(Host, Name) ->
    try gen_mod:get_module_opt(Host, ?MODULE, Name) catch _:_ -> undefined end.

queue(Host, Event) ->
    gen_server:cast(gen_mod:get_module_proc(Host, ?MODULE), {event, Event}).

%% ------------------------------------------------------------------------------------------ the command

%% Every guest of `GuestHost` in a room of `Service` now, from mod_muc's table of online room users (one
%% ETS read, however many rooms): the server's backstop sweep asks this once a minute.
room_guests(Service, GuestHost) ->
    Rows = ets:select(muc_online_users,
                      [{{muc_online_users, {'$1', '$2'}, '_', '$3', Service},
                        [{'==', '$2', GuestHost}],
                        [{{'$3', '$1'}}]}]),
    lists:usort(Rows).

commands() ->
    [#ejabberd_commands{name = lobby_room_guests, tags = [muc_room],
                        desc = "List every guest in a room of a MUC service (Lobby)",
                        module = ?MODULE, function = room_guests,
                        args = [{service, binary}, {guest_host, binary}],
                        args_desc = ["MUC service", "Guests' host"],
                        args_example = [<<"conference.lobby.local">>, <<"guest.lobby.local">>],
                        result_desc = "Room name and guest username of each guest in a room",
                        result_example = [{<<"a12-g0123">>, <<"g0123">>}],
                        result = {guests, {list, {guest, {tuple, [{room, string}, {user, string}]}}}}}].

%% ----------------------------------------------------------------------------------- the batching process

init([Host | _]) ->
    process_flag(trap_exit, true),
    application:ensure_all_started(inets),
    logger:info("mod_lobby_events: posting the guests' events to ~ts", [lists:join(", ", urls(Host))]),
    %% next: the index (in urls/1) of the URL that took the last batch; inflight: the post awaiting its answer
    {ok, #{host => Host, buffer => [], count => 0, timer => undefined, next => 0, inflight => undefined,
           failing => false}}.

%% `urls`, or the one `url`, as httpc's strings
urls(Host) ->
    case {opt(Host, urls), opt(Host, url)} of
        {[_ | _] = Urls, _} -> [binary_to_list(U) || U <- Urls];
        {_, <<_, _/binary>> = Url} -> [binary_to_list(Url)];
        _ -> []
    end.

handle_cast({event, _Event}, #{count := Count} = State) when Count >= ?MAX_BUFFERED ->
    {noreply, State};
handle_cast({event, Event}, #{buffer := Buffer, count := Count} = State) ->
    {noreply, schedule(State#{buffer := [Event | Buffer], count := Count + 1})};
handle_cast(_Msg, State) ->
    {noreply, State}.

%% the next flush, unless one is due or a post is in flight (its answer schedules it); at once when a
%% whole post's worth waits
schedule(#{buffer := [_ | _], timer := undefined, inflight := undefined, count := Count} = State) ->
    Delay = case Count >= ?MAX_PER_POST of true -> 0; false -> ?FLUSH_MS end,
    State#{timer := erlang:send_after(Delay, self(), flush)};
schedule(State) ->
    State.

handle_info(flush, #{buffer := []} = State) ->
    {noreply, State#{timer := undefined}};
handle_info(flush, #{host := Host, buffer := Buffer} = State) ->
    {Batch, Rest} = split(lists:reverse(Buffer), ?MAX_PER_POST),
    Rested = State#{buffer := lists:reverse(Rest), count := length(Rest), timer := undefined},
    case urls(Host) of
        [] -> {noreply, Rested#{buffer := [], count := 0}};
        Urls -> {noreply, schedule(post(body(Batch), Urls, 0, Rested))}
    end;
%% httpc's answer to the post in flight: taken, or tried at the next URL
handle_info({http, {Ref, Result}}, #{inflight := #{ref := Ref, body := Body, tried := Tried, url := Url},
                                     host := Host, failing := Failing} = State) ->
    Urls = urls(Host),
    Done = State#{inflight := undefined},
    case taken(Result) of
        true ->
            {noreply, schedule(Done#{failing := false})};
        retry when Tried + 1 < length(Urls) ->
            %% (while no instance takes them, each batch tries every URL in silence)
            case Failing of
                false -> logger:warning("mod_lobby_events: the Lobby server at ~ts did not take the events (~p); posting them to ~ts",
                                        [Url, summary(Result), next_url(Urls, Done)]);
                true -> ok
            end,
            {noreply, post(Body, Urls, Tried + 1, Done#{next := index(Done) + 1})};
        _ ->
            %% logged once until a post is taken again
            case Failing of
                false -> logger:warning("mod_lobby_events: no Lobby server took the events, dropped (last, ~ts: ~p)",
                                        [Url, summary(Result)]);
                true -> ok
            end,
            {noreply, schedule(Done#{failing := true})}
    end;
handle_info(_Info, State) ->
    {noreply, State}.

handle_call(_Request, _From, State) -> {reply, ok, State}.
terminate(_Reason, _State) -> ok.
code_change(_OldVsn, State, _Extra) -> {ok, State}.

split(List, N) when length(List) =< N -> {List, []};
split(List, N) -> lists:split(N, List).

%% 2xx: taken; refused, timed out, 5xx: another instance may take it; anything else (401, 400) would be
%% answered the same by every instance
taken({{_, Status, _}, _, _}) when Status >= 200, Status < 300 -> true;
taken({{_, Status, _}, _, _}) when Status >= 500 -> retry;
taken({error, _}) -> retry;
taken(_) -> false.

summary({{_, Status, _}, _, Body}) -> {Status, Body};
summary(Other) -> Other.

index(#{next := Next}) -> Next.
next_url(Urls, State) -> lists:nth((index(State) + 1) rem length(Urls) + 1, Urls).

%% posts Body to the URL at `next` (the list may have shrunk since: it wraps round); Tried URLs failed before
post(Body, Urls, Tried, #{host := Host} = State) ->
    Next = index(State) rem length(Urls),
    Url = lists:nth(Next + 1, Urls),
    Secret = binary_to_list(opt(Host, secret)),
    Ref = case httpc:request(post, {Url, [{"authorization", "Bearer " ++ Secret}], "application/json", Body},
                             [{timeout, 5000}, {connect_timeout, 2000}],
                             [{sync, false}, {receiver, self()}]) of
              {ok, RequestId} ->
                  RequestId;
              {error, Reason} ->
                  %% not sent at all (a malformed URL): answered as a failed post, at once
                  Own = make_ref(),
                  self() ! {http, {Own, {error, Reason}}},
                  Own
          end,
    State#{next := Next, inflight := #{ref => Ref, body => Body, tried => Tried, url => Url}}.

body(Batch) ->
    iolist_to_binary([<<"{\"events\":[">>, lists:join(<<",">>, [json(E) || E <- Batch]), <<"]}">>]).

%% Names are nodeprepped user and room names; anything outside a plain JSON string's safe characters is
%% escaped as \u00XX.
json(Fields) ->
    [<<"{">>, lists:join(<<",">>, [[<<"\"">>, atom_to_binary(K), <<"\":\"">>, escape(V), <<"\"">>] || {K, V} <- Fields]), <<"}">>].

escape(Bin) ->
    << <<(escape_char(C))/binary>> || <<C>> <= Bin >>.

escape_char(C) when C == $"; C == $\\; C < 16#20 ->
    list_to_binary(io_lib:format("\\u~4.16.0b", [C]));
escape_char(C) -> <<C>>.
