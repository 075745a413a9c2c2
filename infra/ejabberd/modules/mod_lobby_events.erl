%%% Tells the Lobby server when a guest joins or leaves one of its rooms and when a guest's session opens
%%% or ends (docs/operations.md "Calls whose guest vanished", "Guest rooms nobody can use any more").
%%%
%%% The server used to ask for the occupants of every open call's room every 3 s: at 5,000 waiting guests
%%% that was over a core of idle CPU, and a vanished guest was noticed later the longer the queue. Now it
%%% learns of a guest leaving from these events and asks about that one room only; a slow full sweep
%%% (one `lobby_room_guests` call, below) catches what an event could not tell it (the server was
%%% restarting when ejabberd posted).
%%%
%%% Events are batched: each host's process posts what happened in the last half second as one JSON
%%% body, `{"events":[{"type":"join"|"leave","room":R,"user":U} | {"type":"online"|"offline","user":U}]}`,
%%% to the server's loopback `url` with `Authorization: Bearer <secret>`, without waiting for the answer
%%% (a room's process or a session is never held up by the server). A post that fails is not tried again:
%%% the server's backstop sweep is the answer to a lost event.
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
mod_opt_type(secret) -> econf:binary().

mod_options(_Host) -> [{guest_host, <<>>}, {muc_host, <<>>}, {url, <<>>}, {secret, <<>>}].

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
    {ok, #{host => Host, url => binary_to_list(opt(Host, url)), secret => binary_to_list(opt(Host, secret)),
           buffer => [], count => 0, timer => undefined, failing => false}}.

handle_cast({event, _Event}, #{count := Count} = State) when Count >= ?MAX_BUFFERED ->
    {noreply, State};
handle_cast({event, _Event}, #{url := ""} = State) ->
    {noreply, State};
handle_cast({event, Event}, #{buffer := Buffer, count := Count, timer := Timer} = State) ->
    NewTimer = case Timer of
                   undefined -> erlang:send_after(?FLUSH_MS, self(), flush);
                   _ -> Timer
               end,
    {noreply, State#{buffer := [Event | Buffer], count := Count + 1, timer := NewTimer}};
handle_cast(_Msg, State) ->
    {noreply, State}.

handle_info(flush, #{buffer := Buffer} = State) ->
    {Batch, Rest} = split(lists:reverse(Buffer), ?MAX_PER_POST),
    post(Batch, State),
    Timer = case Rest of
                [] -> undefined;
                _ -> erlang:send_after(?FLUSH_MS, self(), flush)
            end,
    {noreply, State#{buffer := lists:reverse(Rest), count := length(Rest), timer := Timer}};
%% httpc's answer to a post: a failure is logged once until a post succeeds again
handle_info({http, {_Ref, Result}}, #{failing := Failing, url := Url} = State) ->
    Ok = case Result of
             {{_, Status, _}, _, _} when Status >= 200, Status < 300 -> true;
             _ -> false
         end,
    case {Ok, Failing} of
        {false, false} ->
            logger:warning("mod_lobby_events: the Lobby server at ~ts did not take the events: ~p",
                           [Url, summary(Result)]);
        _ -> ok
    end,
    {noreply, State#{failing := not Ok}};
handle_info(_Info, State) ->
    {noreply, State}.

handle_call(_Request, _From, State) -> {reply, ok, State}.
terminate(_Reason, _State) -> ok.
code_change(_OldVsn, State, _Extra) -> {ok, State}.

split(List, N) when length(List) =< N -> {List, []};
split(List, N) -> lists:split(N, List).

summary({{_, Status, _}, _, Body}) -> {Status, Body};
summary(Other) -> Other.

post([], _State) -> ok;
post(Batch, #{url := Url, secret := Secret}) ->
    Body = iolist_to_binary([<<"{\"events\":[">>, lists:join(<<",">>, [json(E) || E <- Batch]), <<"]}">>]),
    httpc:request(post, {Url, [{"authorization", "Bearer " ++ Secret}], "application/json", Body},
                  [{timeout, 5000}, {connect_timeout, 2000}],
                  [{sync, false}, {receiver, self()}]).

%% Names are nodeprepped user and room names; anything outside a plain JSON string's safe characters is
%% escaped as \u00XX.
json(Fields) ->
    [<<"{">>, lists:join(<<",">>, [[<<"\"">>, atom_to_binary(K), <<"\":\"">>, escape(V), <<"\"">>] || {K, V} <- Fields]), <<"}">>].

escape(Bin) ->
    << <<(escape_char(C))/binary>> || <<C>> <= Bin >>.

escape_char(C) when C == $"; C == $\\; C < 16#20 ->
    list_to_binary(io_lib:format("\\u~4.16.0b", [C]));
escape_char(C) -> <<C>>.
